package httpapi

import (
	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/tenants"
)

// visibility is how much of a receiver's credentials p may see: owners,
// admins and API keys see everything; viewers and support staff see
// custom header values, URL query values and URLs inside error messages
// redacted. Every route returning endpoints or attempts goes through it.
func visibility(p tenants.Principal) delivery.Visibility {
	switch {
	case p.IsStaff():
		return delivery.VisibilityRedacted
	case p.Kind == tenants.KindAPIKey:
		return delivery.VisibilityFull
	case p.Role.AtLeast(tenants.RoleAdmin):
		return delivery.VisibilityFull
	default:
		return delivery.VisibilityRedacted
	}
}
