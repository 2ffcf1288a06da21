package httpapi

import (
	"context"

	"github.com/gofiber/fiber/v2"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/tenants"
)

// NotificationService keeps a member's notification mail preferences
// (/me/notifications). It is satisfied by *tenants.Service.
type NotificationService interface {
	// NotificationPrefs returns p's preferences. Errors: EFORBIDDEN (not
	// a tenant user), wrapped database errors.
	NotificationPrefs(ctx context.Context, p tenants.Principal) (tenants.NotificationPrefs, error)
	// SetNotificationPrefs stores p's preferences. Errors: EFORBIDDEN,
	// wrapped database errors.
	SetNotificationPrefs(ctx context.Context, p tenants.Principal, prefs tenants.NotificationPrefs) (tenants.NotificationPrefs, error)
}

// notificationPrefsInput is the body of PUT /me/notifications: every
// preference, so a client never turns one off by leaving it out.
type notificationPrefsInput struct {
	EndpointHealth *bool `json:"endpoint_health" required:"true" description:"endpoint failing, disabled and recovered mails"`
	Quota          *bool `json:"quota" required:"true" description:"80 % and 100 % of the monthly events"`
	Invoices       *bool `json:"invoices" required:"true" description:"invoice issued mails (owners only)"`
}

// getNotificationPrefs: GET /me/notifications, which notification mails
// the signed-in user gets.
func (s *server) getNotificationPrefs(c *fiber.Ctx) error {
	prefs, err := s.Notifications.NotificationPrefs(c.UserContext(), principal(c))
	if err != nil {
		return err
	}
	return c.JSON(prefs)
}

// putNotificationPrefs: PUT /me/notifications, every preference at once.
func (s *server) putNotificationPrefs(c *fiber.Ctx) error {
	var in notificationPrefsInput
	if err := decode(c, &in); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		v    *bool
	}{{"endpoint_health", in.EndpointHealth}, {"quota", in.Quota}, {"invoices", in.Invoices}} {
		if f.v == nil {
			return ferry.Invalid(f.name, "%s is required (true or false)", f.name)
		}
	}
	prefs, err := s.Notifications.SetNotificationPrefs(c.UserContext(), principal(c),
		tenants.NotificationPrefs{EndpointHealth: *in.EndpointHealth, Quota: *in.Quota, Invoices: *in.Invoices})
	if err != nil {
		return err
	}
	return c.JSON(prefs)
}
