// Package tenants owns Ferry's identities: tenants and their users, support
// staff, roles, API keys, portal sessions (JWT) and the staff audit log.
//
// Every tenant-owned query takes the tenant id explicitly and filters on it,
// so an object of another tenant is simply not found (the forTenant scope).
//
// Tables are read and written through the GORM models in rows.go; the
// migrations in migrations/ define them, never AutoMigrate. The plan column
// of tenants names a billing plan: tenants stores it and billing assigns it
// through TenantPlan, SetTenantPlan and EachTenant (plan.go), so billing
// never names this package's tables.
package tenants
