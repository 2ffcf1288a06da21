package billing

import (
	"context"
	"errors"
	"fmt"
)

// RunOnce is one pass of the worker job: meter the attempts of recent days
// (MeterRecentAttempts), prune attempts past each tenant's retention (after
// metering, so nothing is pruned uncounted), clean old rate windows, invoice the
// previous month unless a run already completed, and collect unpaid
// invoices. Every step is idempotent, so replicas may run it concurrently.
func (s *Service) RunOnce(ctx context.Context) error {
	now := s.clock.Now().UTC()
	var errs []error
	if err := s.MeterRecentAttempts(ctx); err != nil {
		errs = append(errs, err)
	} else if _, err := s.PruneAttempts(ctx); err != nil {
		errs = append(errs, err)
	}
	if err := s.CleanRateWindows(ctx); err != nil {
		errs = append(errs, err)
	}
	prev := MonthStart(now).AddDate(0, -1, 0)
	var runs int64
	if err := s.db.WithContext(ctx).Model(&invoiceRunRow{}).Where("period = ?", prev).Count(&runs).Error; err != nil {
		errs = append(errs, fmt.Errorf("look up invoice run: %w", err))
	} else if runs == 0 {
		if _, err := s.RunInvoices(ctx, prev); err != nil {
			errs = append(errs, err)
		}
	} else if err := s.CollectPayments(ctx); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// Run runs RunOnce at start and every JobInterval until ctx ends; failures
// are logged and retried on the next tick.
func (s *Service) Run(ctx context.Context) error {
	t := s.clock.NewTicker(s.cfg.JobInterval)
	defer t.Stop()
	for {
		if err := s.RunOnce(ctx); err != nil && ctx.Err() == nil {
			s.log.ErrorContext(ctx, "billing job failed", "err", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C():
		}
	}
}
