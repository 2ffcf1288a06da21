package tenants

import (
	"time"

	"github.com/google/uuid"
)

// Role is a user's role inside one tenant.
type Role string

// Roles, from most to least privileged.
const (
	RoleOwner  Role = "owner"
	RoleAdmin  Role = "admin"
	RoleViewer Role = "viewer"
)

// Valid reports whether r is one of the known roles.
func (r Role) Valid() bool {
	return r == RoleOwner || r == RoleAdmin || r == RoleViewer
}

// AtLeast reports whether r grants at least the rights of min.
func (r Role) AtLeast(min Role) bool {
	rank := map[Role]int{RoleViewer: 1, RoleAdmin: 2, RoleOwner: 3}
	return rank[r] >= rank[min]
}

// Tenant is a customer organisation of Ferry.
type Tenant struct {
	ID        uuid.UUID `json:"id"`
	Name      string    `json:"name"`
	Plan      string    `json:"plan"`
	CreatedAt time.Time `json:"created_at"`
}

// User is a member of one tenant.
type User struct {
	ID        uuid.UUID `json:"id"`
	TenantID  uuid.UUID `json:"tenant_id"`
	Email     string    `json:"email"`
	Role      Role      `json:"role"`
	CreatedAt time.Time `json:"created_at"`
}

// Staff is a Ferry support engineer; staff belong to no tenant.
type Staff struct {
	ID        uuid.UUID `json:"id"`
	Email     string    `json:"email"`
	CreatedAt time.Time `json:"created_at"`
}

// PrincipalKind says how a request was authenticated.
type PrincipalKind string

// Principal kinds.
const (
	KindUser   PrincipalKind = "user"
	KindStaff  PrincipalKind = "staff"
	KindAPIKey PrincipalKind = "api_key"
)

// Principal is whoever is making a request: a tenant user (session), a
// tenant application (API key), or support staff (session).
type Principal struct {
	Kind     PrincipalKind
	TenantID uuid.UUID // zero for staff
	UserID   uuid.UUID // user or staff id; zero for API keys
	KeyID    uuid.UUID // API key id; zero otherwise
	// KeyPrefix is the API key's visible prefix (fry_live_ab12…), which
	// names the key in replay actors and logs; empty otherwise.
	KeyPrefix string
	Email     string
	Role      Role // for users; API keys act as admin
}

// IsStaff reports whether p is support staff.
func (p Principal) IsStaff() bool { return p.Kind == KindStaff }

// Actor names p in attempt logs and replay jobs: the user's email, the
// API key's prefix, or "staff:<email>".
func (p Principal) Actor() string {
	switch p.Kind {
	case KindStaff:
		return "staff:" + p.Email
	case KindAPIKey:
		return p.KeyPrefix
	default:
		return p.Email
	}
}
