package app

import (
	"log/slog"

	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/app/httpapi"
	"github.com/ferry-dev/ferry/catalog"
	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/inbound"
)

// The event-type catalog answers the schema checks of delivery's ingest
// and of inbound's captures, and the HTTP layer's /event-types.
var (
	_ delivery.SchemaChecker   = (*catalog.Service)(nil)
	_ inbound.SchemaChecker    = (*catalog.Service)(nil)
	_ httpapi.EventTypeService = (*catalog.Service)(nil)
)

// newCatalog returns the event-type catalog with its default bounds.
func newCatalog(db *gorm.DB, log *slog.Logger) (*catalog.Service, error) {
	return catalog.New(db, catalog.Config{}, log, nil)
}
