// Package tenants owns Ferry's identities: tenants and their users, support
// staff, roles, API keys, portal sessions (JWT) and the staff audit log.
//
// Every tenant-owned query takes the tenant id explicitly and filters on it,
// so an object of another tenant is simply not found.
package tenants
