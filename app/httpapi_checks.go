package app

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/ferry-dev/ferry/app/httpapi"
	"github.com/ferry-dev/ferry/billing"
	"github.com/ferry-dev/ferry/customers"
	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/insight"
	"github.com/ferry-dev/ferry/delivery/opevents"
	"github.com/ferry-dev/ferry/delivery/queue"
	"github.com/ferry-dev/ferry/delivery/replay"
	"github.com/ferry-dev/ferry/idempotency"
	"github.com/ferry-dev/ferry/inbound"
	"github.com/ferry-dev/ferry/portal"
	"github.com/ferry-dev/ferry/tenants"
)

// The domain services New plugs into httpapi.Deps, one check per
// interface of the HTTP layer.
var (
	_ httpapi.AuthService          = (*tenants.Service)(nil)
	_ httpapi.SessionTokens        = (*tenants.Sessions)(nil)
	_ httpapi.AccountService       = (*tenants.Service)(nil)
	_ httpapi.NotificationService  = (*tenants.Service)(nil)
	_ httpapi.APIKeyService        = (*tenants.Service)(nil)
	_ httpapi.MemberService        = (*tenants.Service)(nil)
	_ httpapi.StaffService         = (*tenants.Service)(nil)
	_ httpapi.CustomerService      = (*customers.Service)(nil)
	_ httpapi.PortalService        = (*portal.Service)(nil)
	_ httpapi.OperationalEvents    = (*opevents.Emitter)(nil)
	_ httpapi.EndpointService      = (*delivery.Service)(nil)
	_ httpapi.EventService         = (*delivery.Service)(nil)
	_ httpapi.EventCounter         = prometheus.Counter(nil)
	_ httpapi.ReplayService        = (*replay.Service)(nil)
	_ httpapi.StatsService         = (*insight.Service)(nil)
	_ httpapi.StaffDeliveryService = (*insight.Service)(nil)
	_ httpapi.BillingService       = (*billing.Service)(nil)
	_ httpapi.QueueService         = (*queue.Service)(nil)
	_ httpapi.SourceService        = (*inbound.Service)(nil)
	_ httpapi.IdempotencyStore     = (*idempotency.Store)(nil)
	_ httpapi.InboundReceiver      = (*inbound.Service)(nil)
)
