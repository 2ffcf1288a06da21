package httpapi

import (
	"context"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/tenants"
)

// MemberService manages a tenant's members (/members). It is satisfied
// by *tenants.Service.
type MemberService interface {
	// ListMembers returns the tenant's users.
	ListMembers(ctx context.Context, tenantID uuid.UUID) ([]tenants.User, error)
	// InviteMember creates a member and mails them an invite. Errors:
	// EINVALID, ECONFLICT, EFORBIDDEN (the inviter's address is not
	// verified), ERATELIMIT.
	InviteMember(ctx context.Context, inviter tenants.Principal, in tenants.MemberInput) (tenants.User, error)
	// ResendInvite mails a pending member a fresh invite. Errors:
	// ENOTFOUND, ECONFLICT, and those of InviteMember.
	ResendInvite(ctx context.Context, inviter tenants.Principal, userID uuid.UUID) (tenants.User, error)
	// UpdateMember changes a member's role. Errors: ENOTFOUND, EINVALID,
	// ECONFLICT (last owner).
	UpdateMember(ctx context.Context, tenantID, userID uuid.UUID, patch tenants.MemberPatch) (tenants.User, error)
	// RemoveMember deletes a member. Errors: ENOTFOUND, ECONFLICT (last
	// owner).
	RemoveMember(ctx context.Context, tenantID, userID uuid.UUID) error
}

func (s *server) listMembers(c *fiber.Ctx) error {
	users, err := s.Members.ListMembers(c.UserContext(), principal(c).TenantID)
	if err != nil {
		return err
	}
	return c.JSON(newList(users, ""))
}

func (s *server) inviteMember(c *fiber.Ctx) error {
	var in tenants.MemberInput
	if err := decode(c, &in); err != nil {
		return err
	}
	// The member gets an emailed link and sets their own password.
	u, err := s.Members.InviteMember(c.UserContext(), principal(c), in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(u)
}

// resendInvite: POST /members/{id}/invite mails a pending member a fresh link.
func (s *server) resendInvite(c *fiber.Ctx) error {
	id, err := pathID(c, "member")
	if err != nil {
		return err
	}
	u, err := s.Members.ResendInvite(c.UserContext(), principal(c), id)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(u)
}

func (s *server) updateMember(c *fiber.Ctx) error {
	id, err := pathID(c, "member")
	if err != nil {
		return err
	}
	var patch tenants.MemberPatch
	if err := decode(c, &patch); err != nil {
		return err
	}
	if patch.Role == "" {
		return ferry.Invalid("role", "role is required")
	}
	u, err := s.Members.UpdateMember(c.UserContext(), principal(c).TenantID, id, patch)
	if err != nil {
		return err
	}
	return c.JSON(u)
}

func (s *server) removeMember(c *fiber.Ctx) error {
	id, err := pathID(c, "member")
	if err != nil {
		return err
	}
	if err := s.Members.RemoveMember(c.UserContext(), principal(c).TenantID, id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
