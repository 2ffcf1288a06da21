// Package model holds the values every part of delivery shares: the job
// that asks for an attempt and the topics it travels on, a delivery's
// Status, an attempt's Outcome and its logged Attempt, and the
// operational events Ferry emits about a tenant's account. It depends on
// nothing of Ferry's, so every delivery package can import it.
package model
