package httpapi

import (
	"context"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/customers"
	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/page"
	"github.com/ferry-dev/ferry/tenants"
)

// CustomerService manages the tenant's customers (/customers). It is
// satisfied by *customers.Service.
type CustomerService interface {
	// Upsert creates or updates the customer in.UID; created reports a
	// new one. Errors: EINVALID.
	Upsert(ctx context.Context, tenantID uuid.UUID, in customers.Input) (customers.Customer, bool, error)
	// Get returns one customer. Errors: ENOTFOUND.
	Get(ctx context.Context, tenantID uuid.UUID, uid string) (customers.Customer, error)
	// List returns a page of customers, newest first.
	List(ctx context.Context, tenantID uuid.UUID, pg page.Request) ([]customers.Customer, string, error)
	// Update changes a customer's name or metadata. Errors: ENOTFOUND,
	// EINVALID.
	Update(ctx context.Context, tenantID uuid.UUID, uid string, p customers.Patch) (customers.Customer, error)
	// Delete deletes a customer and disables its endpoints. Errors:
	// ENOTFOUND.
	Delete(ctx context.Context, tenantID uuid.UUID, uid string) error
}

// customerInput is the body of PUT /customers/{uid}: the uid is the
// path's.
type customerInput struct {
	Name     string            `json:"name"`     // a display name
	Metadata map[string]string `json:"metadata"` // string pairs of yours, replacing the stored ones
}

// customerView is a customer as the customer routes answer it: with the
// health of its endpoints, so that a list shows every row's health from
// one request.
type customerView struct {
	customers.Customer
	Endpoints delivery.EndpointHealth `json:"endpoints"` // the customer's live endpoints, summed up
}

// withHealth adds their endpoints' health to cs.
func (s *server) withHealth(ctx context.Context, tenantID uuid.UUID, cs []customers.Customer) ([]customerView, error) {
	uids := make([]string, len(cs))
	for i, cu := range cs {
		uids[i] = cu.UID
	}
	health, err := s.Endpoints.CustomerEndpointHealth(ctx, tenantID, uids)
	if err != nil {
		return nil, err
	}
	out := make([]customerView, len(cs))
	for i, cu := range cs {
		out[i] = customerView{Customer: cu, Endpoints: health[cu.UID]}
	}
	return out, nil
}

func (s *server) customerRoutes(api fiber.Router) {
	api.Post("/customers", s.auth(sessionOrKey, tenants.RoleAdmin), s.createCustomer)
	api.Get("/customers", s.auth(sessionOrKey, tenants.RoleViewer), s.listCustomers)
	api.Get("/customers/:uid", s.auth(sessionOrKey, tenants.RoleViewer), s.getCustomer)
	api.Put("/customers/:uid", s.auth(sessionOrKey, tenants.RoleAdmin), s.putCustomer)
	api.Patch("/customers/:uid", s.auth(sessionOrKey, tenants.RoleAdmin), s.patchCustomer)
	api.Delete("/customers/:uid", s.auth(sessionOrKey, tenants.RoleAdmin), s.deleteCustomer)
}

// viewOf is cu with the health of its endpoints.
func (s *server) viewOf(ctx context.Context, tenantID uuid.UUID, cu customers.Customer) (customerView, error) {
	views, err := s.withHealth(ctx, tenantID, []customers.Customer{cu})
	if err != nil {
		return customerView{}, err
	}
	return views[0], nil
}

// upserted answers an upsert: 201 for a new customer, 200 otherwise.
func (s *server) upserted(c *fiber.Ctx, cu customers.Customer, created bool) error {
	view, err := s.viewOf(c.UserContext(), principal(c).TenantID, cu)
	if err != nil {
		return err
	}
	if created {
		return c.Status(fiber.StatusCreated).JSON(view)
	}
	return c.JSON(view)
}

func (s *server) createCustomer(c *fiber.Ctx) error {
	var in customers.Input
	if err := decode(c, &in); err != nil {
		return err
	}
	cu, created, err := s.Customers.Upsert(c.UserContext(), principal(c).TenantID, in)
	if err != nil {
		return err
	}
	return s.upserted(c, cu, created)
}

func (s *server) putCustomer(c *fiber.Ctx) error {
	var in customerInput
	if err := decode(c, &in); err != nil {
		return err
	}
	cu, created, err := s.Customers.Upsert(c.UserContext(), principal(c).TenantID,
		customers.Input{UID: c.Params("uid"), Name: in.Name, Metadata: in.Metadata})
	if err != nil {
		return err
	}
	return s.upserted(c, cu, created)
}

func (s *server) listCustomers(c *fiber.Ctx) error {
	pg, err := pageRequest(c)
	if err != nil {
		return err
	}
	tenantID := principal(c).TenantID
	cs, next, err := s.Customers.List(c.UserContext(), tenantID, pg)
	if err != nil {
		return err
	}
	views, err := s.withHealth(c.UserContext(), tenantID, cs)
	if err != nil {
		return err
	}
	return c.JSON(newList(views, next))
}

func (s *server) getCustomer(c *fiber.Ctx) error {
	tenantID := principal(c).TenantID
	cu, err := s.Customers.Get(c.UserContext(), tenantID, c.Params("uid"))
	if err != nil {
		return err
	}
	view, err := s.viewOf(c.UserContext(), tenantID, cu)
	if err != nil {
		return err
	}
	return c.JSON(view)
}

func (s *server) patchCustomer(c *fiber.Ctx) error {
	var p customers.Patch
	if err := decode(c, &p); err != nil {
		return err
	}
	tenantID := principal(c).TenantID
	cu, err := s.Customers.Update(c.UserContext(), tenantID, c.Params("uid"), p)
	if err != nil {
		return err
	}
	view, err := s.viewOf(c.UserContext(), tenantID, cu)
	if err != nil {
		return err
	}
	return c.JSON(view)
}

func (s *server) deleteCustomer(c *fiber.Ctx) error {
	if err := s.Customers.Delete(c.UserContext(), principal(c).TenantID, c.Params("uid")); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
