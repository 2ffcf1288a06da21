package httpapi

import (
	"github.com/gofiber/fiber/v2"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/tenants"
)

func (s *server) listMembers(c *fiber.Ctx) error {
	users, err := s.Tenants.ListMembers(c.UserContext(), principal(c).TenantID)
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
	u, err := s.Tenants.InviteMember(c.UserContext(), principal(c), in)
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
	u, err := s.Tenants.ResendInvite(c.UserContext(), principal(c), id)
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
	u, err := s.Tenants.UpdateMember(c.UserContext(), principal(c).TenantID, id, patch)
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
	if err := s.Tenants.RemoveMember(c.UserContext(), principal(c).TenantID, id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
