package tests

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/uuid"
)

// Who may call what: "+" allowed, "-" refused. Columns: owner, admin,
// viewer (portal sessions), API key, support staff session. A refused
// tenant caller gets 403; a tenant caller of a staff route gets 404 (the
// staff console does not exist for tenants); staff on tenant routes get
// 403. Every registered /api/v1 route must have a row.
var roleTable = map[string]string{
	"GET /me":                                          "+++-+",
	"GET /openapi-internal.json":                       "+++-+",
	"POST /me/password":                                "+++-+",
	"POST /me/totp":                                    "----+",
	"POST /me/totp/confirm":                            "----+",
	"GET /me/notifications":                            "+++--",
	"PUT /me/notifications":                            "+++--",
	"GET /staff/events/:event_id":                      "----+",
	"POST /api-keys":                                   "++---",
	"GET /api-keys":                                    "+++--",
	"DELETE /api-keys/:id":                             "++---",
	"POST /customers/:uid/portal-sessions":             "++-+-",
	"POST /customers/:uid/portal-sessions/revoke":      "++-+-",
	"GET /portal-sessions":                             "++++-",
	"DELETE /portal-sessions/:id":                      "++-+-",
	"GET /portal-settings":                             "++++-",
	"PUT /portal-settings":                             "++-+-",
	"GET /portal-audit":                                "++++-",
	"POST /customers":                                  "++-+-",
	"GET /customers":                                   "++++-",
	"GET /customers/:uid":                              "++++-",
	"PUT /customers/:uid":                              "++-+-",
	"PATCH /customers/:uid":                            "++-+-",
	"DELETE /customers/:uid":                           "++-+-",
	"POST /endpoints":                                  "++-+-",
	"GET /endpoints":                                   "++++-",
	"GET /endpoints/:id":                               "++++-",
	"PATCH /endpoints/:id":                             "++-+-",
	"DELETE /endpoints/:id":                            "++-+-",
	"GET /endpoints/:id/secret":                        "++-+-",
	"POST /endpoints/:id/secret/rotate":                "++-+-",
	"GET /endpoints/:id/attempts":                      "++++-",
	"POST /events":                                     "++-+-",
	"GET /events":                                      "++++-",
	"GET /events/:id":                                  "++++-",
	"GET /events/:id/attempts":                         "++++-",
	"POST /events/:id/replay":                          "++-+-",
	"POST /deliveries/:id/replay":                      "++-+-",
	"POST /replays":                                    "++-+-",
	"GET /replays":                                     "++-+-",
	"GET /replays/:id":                                 "++-+-",
	"POST /replays/:id/cancel":                         "++-+-",
	"GET /members":                                     "+++--",
	"POST /members":                                    "+----",
	"PATCH /members/:id":                               "+----",
	"POST /members/:id/invite":                         "+----",
	"DELETE /members/:id":                              "+----",
	"GET /staff/tenants":                               "----+",
	"GET /staff/tenants/:id":                           "----+",
	"GET /staff/tenants/:id/events":                    "----+",
	"GET /staff/tenants/:id/events/:event_id":          "----+",
	"POST /staff/tenants/:id/replays":                  "----+",
	"GET /staff/tenants/:id/replays/:replay_id":        "----+",
	"GET /staff/audit":                                 "----+",
	"GET /billing":                                     "+++--",
	"PUT /billing/plan":                                "+----",
	"GET /billing/invoices":                            "+++--",
	"GET /staff/tenants/:id/billing":                   "----+",
	"POST /staff/tenants/:id/billing/lift-restriction": "----+",
	"GET /endpoints/:id/stats":                         "++++-",
	"GET /stats":                                       "++++-",
	"POST /endpoints/:id/test-routing":                 "++++-",
	"POST /endpoints/:id/test":                         "++-+-",
	"GET /queues/:endpoint_id":                         "++++-",
	"POST /queues/:endpoint_id/pull":                   "++-+-",
	"POST /queues/:endpoint_id/ack":                    "++-+-",
	"POST /queues/:endpoint_id/nack":                   "++-+-",
	"POST /queues/:endpoint_id/reject":                 "++-+-",
	"GET /queues/:endpoint_id/stream":                  "++-+-",
	"POST /endpoints/:id/consumer-tokens":              "++-+-",
	"GET /endpoints/:id/consumer-tokens":               "++-+-",
	"DELETE /endpoints/:id/consumer-tokens/:token_id":  "++-+-",

	// Replay preview counts, and the staff console's endpoint attempt log.
	"POST /replays/preview":                                  "++-+-",
	"POST /staff/tenants/:id/replays/preview":                "----+",
	"GET /staff/tenants/:id/endpoints/:endpoint_id/attempts": "----+",

	"POST /sources":                                 "++-+-",
	"GET /sources":                                  "++++-",
	"GET /sources/:id":                              "++++-",
	"PATCH /sources/:id":                            "++-+-",
	"DELETE /sources/:id":                           "++-+-",
	"POST /sources/:id/rotate-token":                "++-+-",
	"GET /sources/:id/requests":                     "++++-",
	"GET /sources/:id/requests/:request_id":         "++++-",
	"POST /sources/:id/requests/:request_id/replay": "++-+-",
	"POST /event-types":                             "++-+-",
	"GET /event-types":                              "++++-",
	"POST /event-types/import":                      "++-+-",
	"GET /event-types/:name":                        "++++-",
	"PATCH /event-types/:name":                      "++-+-",
	"DELETE /event-types/:name":                     "++-+-",
	"POST /event-types/:name/versions":              "++-+-",
}

// publicRoutes need no credentials.
var publicRoutes = map[string]bool{
	"POST /auth/signup": true, "POST /auth/signup/confirm": true, "POST /me/verify-email": true, "POST /auth/login": true, "POST /auth/logout": true, "GET /openapi.json": true,
	"POST /auth/password-reset": true, "POST /auth/password-reset/confirm": true, "POST /auth/invites/accept": true,
	"POST /auth/verify-email": true,
}

// roleBodies are request bodies that pass validation, so an allowed
// caller is not refused for its input.
func roleBody(route string, n int) any {
	switch route {
	case "POST /api-keys":
		return map[string]string{"name": "k"}
	case "POST /endpoints":
		return map[string]string{"url": "http://127.0.0.1:9/hook"}
	case "PATCH /endpoints/:id":
		return map[string]string{"description": "x"}
	case "POST /events":
		return map[string]any{"type": "role.test", "data": map[string]int{"n": n}}
	case "POST /members":
		return map[string]string{"email": fmt.Sprintf("m%d@roles.example", n), "role": "viewer"}
	case "PATCH /members/:id":
		return map[string]string{"role": "viewer"}
	case "POST /staff/tenants/:id/replays", "POST /staff/tenants/:id/billing/lift-restriction":
		return map[string]string{"reason": "role table"}
	case "POST /me/password":
		// Passes the role check, then fails validation: nobody's password changes.
		return map[string]string{"current_password": "whatever", "new_password": "short"}
	case "PUT /me/notifications":
		return map[string]bool{"endpoint_health": true, "quota": true, "invoices": true}
	case "PUT /billing/plan":
		return map[string]string{"plan": "pro"}
	case "POST /replays", "POST /events/:id/replay", "POST /replays/preview", "POST /staff/tenants/:id/replays/preview":
		return map[string]string{}
	case "POST /sources":
		return map[string]any{"name": "s", "verification": map[string]string{"type": "none"}, "event_type": map[string]string{"value": "role.test"}}
	case "PATCH /sources/:id":
		return map[string]string{"name": "x"}
	case "POST /event-types":
		return map[string]string{"name": fmt.Sprintf("role.type.%d", n)}
	case "PATCH /event-types/:name":
		return map[string]string{"description": "x"}
	case "POST /event-types/:name/versions":
		return map[string]any{"schema": map[string]string{"type": "object"}}
	case "POST /event-types/import":
		return map[string]any{"openapi": "3.1.0", "webhooks": map[string]any{fmt.Sprintf("role.hook.%d", n): map[string]any{"post": map[string]any{
			"requestBody": map[string]any{"content": map[string]any{"application/json": map[string]any{"schema": true}}}}}}}
	}
	return nil
}

func TestRoleRouteTable(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	owner, key := signUp(t, f, "owner@roles.example")
	admin, _ := member(t, f, owner, "admin@roles.example", "admin")
	viewer, _ := member(t, f, owner, "viewer@roles.example", "viewer")
	staff := staffClient(t, f, "staff@ferry.example")
	var me struct {
		Tenant struct {
			ID string `json:"id"`
		} `json:"tenant"`
	}
	owner.must(200, "GET", "/me", nil, &me)
	callers := []struct {
		name string
		c    *client
	}{{"owner", owner}, {"admin", admin}, {"viewer", viewer}, {"api key", key}, {"staff", staff}}

	seen := map[string]bool{}
	n := 0
	for _, route := range apiRoutes(f.App) {
		if publicRoutes[route] || isCustomerPortalRoute(route) {
			continue
		}
		want, ok := roleTable[route]
		if !ok {
			t.Errorf("route %s has no row in the role table", route)
			continue
		}
		seen[route] = true
		method, path, _ := strings.Cut(route, " ")
		// Ids that exist nowhere: an allowed caller gets past the role
		// check to a 404 (or success), a refused one is stopped before.
		path = strings.NewReplacer(":id", uuid.NewString(), ":event_id", uuid.NewString(), ":replay_id", uuid.NewString(),
			":request_id", uuid.NewString(), ":uid", "no-such-customer", ":name", "no.such.type").Replace(path)
		if strings.HasPrefix(route, "GET /staff/tenants/:id") || strings.HasPrefix(route, "POST /staff/tenants/:id") {
			path = strings.Replace(path, strings.Split(path, "/")[3], me.Tenant.ID, 1)
		}
		for i, caller := range callers {
			n++
			status := caller.c.do(method, path, roleBody(route, n), nil)
			allowed := want[i] == '+'
			isStaffRoute := strings.HasPrefix(path, "/staff/")
			switch {
			case allowed && (status == 401 || status == 403):
				t.Errorf("%s %s as %s: %d, want allowed", method, path, caller.name, status)
			case allowed && isStaffRoute && status == 404 && !strings.Contains(route, "_id"):
				t.Errorf("%s %s as %s: 404, want allowed", method, path, caller.name)
			case !allowed && caller.name != "staff" && isStaffRoute && status != 404:
				t.Errorf("%s %s as %s: %d, want 404 (staff routes do not exist for tenants)", method, path, caller.name, status)
			case !allowed && !isStaffRoute && status != 403:
				t.Errorf("%s %s as %s: %d, want 403", method, path, caller.name, status)
			}
		}
	}
	for route := range roleTable {
		if !seen[route] {
			t.Errorf("role table row %s matches no registered route", route)
		}
	}
	// Without credentials every non-public route is 401.
	anon := newClient(t, f.URL+"/api/v1")
	for route := range roleTable {
		method, path, _ := strings.Cut(route, " ")
		path = strings.NewReplacer(":id", uuid.NewString(), ":event_id", uuid.NewString(), ":replay_id", uuid.NewString(),
			":request_id", uuid.NewString(), ":uid", "no-such-customer", ":name", "no.such.type").Replace(path)
		if status := anon.do(method, path, roleBody(route, 0), nil); status != 401 {
			t.Errorf("%s %s without credentials: %d, want 401", method, path, status)
		}
	}
}

// isCustomerPortalRoute reports the routes a customer portal page calls
// with its session's token: no tenant role reaches them (they answer a
// tenant's credentials 401); TestCustomerPortalIsolation covers them.
func isCustomerPortalRoute(route string) bool {
	_, path, _ := strings.Cut(route, " ")
	return strings.HasPrefix(path, "/portal/")
}
