package tenants

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm/clause"

	"github.com/ferry-dev/ferry"
)

// NotificationPrefs says which notification mails a user wants; all are
// on until the user turns them off.
type NotificationPrefs struct {
	// EndpointHealth: an endpoint is failing, was disabled or recovered.
	EndpointHealth bool `json:"endpoint_health" required:"true"`
	// Quota: the tenant reached 80 % or 100 % of its monthly events.
	Quota bool `json:"quota" required:"true"`
	// Invoices: an invoice was issued.
	Invoices bool `json:"invoices" required:"true"`
}

// NotificationTopic names one kind of notification mail.
type NotificationTopic string

// Notification topics, one per field of NotificationPrefs.
const (
	TopicEndpointHealth NotificationTopic = "endpoint_health"
	TopicQuota          NotificationTopic = "quota"
	TopicInvoices       NotificationTopic = "invoices"
)

// DefaultNotificationPrefs returns a user's preferences before they
// change them: every mail.
func DefaultNotificationPrefs() NotificationPrefs {
	return NotificationPrefs{EndpointHealth: true, Quota: true, Invoices: true}
}

// notificationPrefsRow is a row of notification_prefs.
type notificationPrefsRow struct {
	UserID         uuid.UUID `gorm:"primaryKey"`
	EndpointHealth bool
	Quota          bool
	Invoices       bool
	UpdatedAt      time.Time
}

func (notificationPrefsRow) TableName() string { return "notification_prefs" }

// NotificationPrefs returns the preferences of the user p.
// Errors: EFORBIDDEN (not a tenant user), wrapped database errors.
func (s *Service) NotificationPrefs(ctx context.Context, p Principal) (NotificationPrefs, error) {
	if p.Kind != KindUser {
		return NotificationPrefs{}, ferry.Errorf(ferry.EFORBIDDEN, "notification preferences belong to users")
	}
	var rows []notificationPrefsRow
	if err := s.db.WithContext(ctx).Where("user_id = ?", p.UserID).Limit(1).Find(&rows).Error; err != nil {
		return NotificationPrefs{}, fmt.Errorf("load notification preferences: %w", err)
	}
	if len(rows) == 0 {
		return DefaultNotificationPrefs(), nil
	}
	r := rows[0]
	return NotificationPrefs{EndpointHealth: r.EndpointHealth, Quota: r.Quota, Invoices: r.Invoices}, nil
}

// SetNotificationPrefs stores the preferences of the user p.
// Errors: EFORBIDDEN (not a tenant user), wrapped database errors.
func (s *Service) SetNotificationPrefs(ctx context.Context, p Principal, prefs NotificationPrefs) (NotificationPrefs, error) {
	if p.Kind != KindUser {
		return NotificationPrefs{}, ferry.Errorf(ferry.EFORBIDDEN, "notification preferences belong to users")
	}
	row := notificationPrefsRow{UserID: p.UserID, EndpointHealth: prefs.EndpointHealth, Quota: prefs.Quota,
		Invoices: prefs.Invoices, UpdatedAt: time.Now().UTC()}
	if err := s.db.WithContext(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "user_id"}},
		DoUpdates: clause.AssignmentColumns([]string{"endpoint_health", "quota", "invoices", "updated_at"}),
	}).Create(&row).Error; err != nil {
		return NotificationPrefs{}, fmt.Errorf("store notification preferences: %w", err)
	}
	return prefs, nil
}

// NotificationRecipients returns the addresses of the tenant's members
// who accepted their invite and want mail about topic: owners and admins,
// but only owners for invoices.
// Errors: wrapped database errors.
func (s *Service) NotificationRecipients(ctx context.Context, tenantID uuid.UUID, topic NotificationTopic) ([]string, error) {
	var col string
	roles := []Role{RoleOwner, RoleAdmin}
	switch topic {
	case TopicEndpointHealth, TopicQuota:
		col = string(topic)
	case TopicInvoices:
		col, roles = string(topic), []Role{RoleOwner}
	default:
		return nil, fmt.Errorf("unknown notification topic %q", topic)
	}
	var emails []string
	// col is one of the constants above, never user input.
	if err := s.db.WithContext(ctx).Table("users u").
		Joins("LEFT JOIN notification_prefs p ON p.user_id = u.id").
		Where("u.tenant_id = ? AND u.role IN ? AND u.password_hash <> ''", tenantID, roles).
		Where("COALESCE(p."+col+", true)").
		Order("u.created_at, u.id").Pluck("u.email", &emails).Error; err != nil {
		return nil, fmt.Errorf("list notification recipients of tenant %s: %w", tenantID, err)
	}
	return emails, nil
}
