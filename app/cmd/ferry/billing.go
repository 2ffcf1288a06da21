package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/app"
	"github.com/ferry-dev/ferry/billing"
)

func billingInvoiceCmd(fs *flag.FlagSet, e env) func(context.Context) error {
	periodFlag := fs.String("period", "", "the month to invoice, e.g. 2026-11 (default: last month, UTC)")
	return func(ctx context.Context) error {
		period := billing.MonthStart(time.Now()).AddDate(0, -1, 0)
		if *periodFlag != "" {
			var err error
			if period, err = billing.ParsePeriod(*periodFlag); err != nil {
				return err
			}
		}
		svc, err := billingService(ctx, e)
		if err != nil {
			return err
		}
		res, err := svc.RunInvoices(ctx, period)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "invoices for %s: %d tenants, %d issued, %d already issued, %d with nothing to bill\n",
			res.Period, res.Tenants, res.Issued, res.Existing, res.Nothing)
		return nil
	}
}

func billingPlanCmd(fs *flag.FlagSet, e env) func(context.Context) error {
	tenantFlag := fs.String("tenant", "", "the tenant's id")
	planFlag := fs.String("plan", "", "the plan's name (free, pro, enterprise, …)")
	return func(ctx context.Context) error {
		tenantID, err := uuid.Parse(*tenantFlag)
		if err != nil || *planFlag == "" {
			return errors.New("usage: ferry billing plan --tenant ID --plan NAME")
		}
		svc, err := billingService(ctx, e)
		if err != nil {
			return err
		}
		ent, err := svc.AssignPlan(ctx, tenantID, *planFlag, "operator")
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "tenant %s is on the %s plan\n", tenantID, ent.Name)
		return nil
	}
}

func billingService(ctx context.Context, e env) (*billing.Service, error) {
	cfg, db, err := openMigrated(ctx, e.getenv)
	if err != nil {
		return nil, err
	}
	return app.NewBillingService(db, cfg, app.NewLogger(cfg))
}
