// Package notify emails a tenant's people about their account: endpoint
// health (ferry.endpoint.failing, .disabled, .recovered), quota warnings
// (80 % and 100 % of the monthly events) and issued invoices.
//
// Mailer hears of these after the transaction that records them commits
// (it satisfies opevents.Notifier and billing.InvoiceNotifier) and never
// blocks its caller: each mail is handed to a bounded queue drained by
// Run, and dropped with a warning log when the queue is full. Recipients
// are looked up when the mail is sent, through Directory (tenants owns
// users and their notification preferences): owners and admins who did
// not opt out of the topic, owners only for invoices.
package notify
