// Billing.tsx: plan, usage against quota, plan change and invoices (docs/billing.md).
import { useEffect, useState } from 'react'
import { api, type Page } from '../api'
import { Badge, Empty, ErrorMessage, Loading, Notice, Pager, ProgressBar, ConfirmButton } from '../components'
import { formatCount, formatMoney, formatPercent, formatTime, formatBytes } from '../format'
import { usePaged } from '../paging'
import { useSession } from '../session'
import type { BillingOverview, Invoice, Plan, PlanInput } from '../types'

/** quotaWarnAt is the share of the monthly events at which the page warns (as the quota mail does). */
export const quotaWarnAt = 0.8

/** LimitWarnings warns at the plan's endpoint limit and near the monthly events quota. */
export function LimitWarnings({ o }: { o: BillingOverview }) {
  const used = o.plan.events_per_month > 0 ? o.usage.events / o.plan.events_per_month : 0
  const planName = o.plan.display_name || o.plan.name
  return (
    <>
      {o.endpoints >= o.plan.max_endpoints && (
        <p className="alert alert-warn" data-testid="endpoint-limit">
          {formatCount(o.endpoints)} of {formatCount(o.plan.max_endpoints)} endpoints: the {planName} plan allows no more. Upgrade below to add more, or delete one you no longer use.
        </p>
      )}
      {!o.quota_exhausted && used >= quotaWarnAt && (
        <p className="alert alert-warn" data-testid="quota-near">
          {formatPercent(Math.min(used, 1))} of this month's {formatCount(o.plan.events_per_month)} events used.{' '}
          {o.plan.hard_cap ? 'At the limit new events are refused until next month; upgrade to keep sending.' : 'Events beyond it are billed as overage.'}
        </p>
      )}
    </>
  )
}

export function BillingPage() {
  const { me } = useSession()
  const [o, setO] = useState<BillingOverview | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [actionError, setActionError] = useState<unknown>(null)
  const [notice, setNotice] = useState('')
  // paying is the paid plan whose payment step is open.
  const [paying, setPaying] = useState<Plan | null>(null)
  const invoices = usePaged((cursor) => api.get<Page<Invoice>>('/billing/invoices' + (cursor ? `?cursor=${encodeURIComponent(cursor)}` : '')), [])
  useEffect(() => {
    api.get<BillingOverview>('/billing').then(setO, setError)
  }, [])

  async function change(plan: string) {
    setActionError(null)
    setNotice('')
    try {
      setO(await api.put<BillingOverview>('/billing/plan', { plan } satisfies PlanInput))
      setPaying(null)
      setNotice(`Plan changed to ${plan}.`)
    } catch (e) {
      setActionError(e)
    }
  }

  return (
    <section>
      <h1>Billing</h1>
      <ErrorMessage error={error} title="Could not load billing" />
      {!o && !error && <Loading />}
      <Notice>{notice}</Notice>
      <ErrorMessage error={actionError} title="Plan change failed" />
      {o && (
        <>
          <div className="card">
            <h2>{o.plan.display_name || o.plan.name} plan {o.plan.custom && <span className="muted">(custom terms)</span>}</h2>
            {o.payment_overdue && <p className="alert alert-error" role="alert">An invoice is more than 14 days overdue: new events are refused (402) until it is paid. Contact support if you have paid another way.</p>}
            {o.quota_exhausted && <p className="alert alert-error" role="alert">Your monthly event quota is used up: new events are refused until next month or until you upgrade.</p>}
            <LimitWarnings o={o} />
            <p className="muted">Usage for {o.usage.period}</p>
            <ProgressBar value={o.usage.events} max={o.plan.events_per_month} label="Events this month" />
            <dl className="props">
              <dt>Events</dt><dd>{formatCount(o.usage.events)} of {formatCount(o.plan.events_per_month)} included</dd>
              <dt>Delivery attempts</dt>
              <dd>
                {formatCount(o.usage.attempts)}
                <div className="muted" data-testid="attempts-note">Counted from the attempt log by a job that runs every few minutes, so the latest attempts show up a little later. Attempts are not billed.</div>
              </dd>
              <dt>Endpoints</dt><dd>{formatCount(o.endpoints)} of {formatCount(o.plan.max_endpoints)}</dd>
              <dt>Log retention</dt><dd>{formatCount(o.plan.retention_days)} days</dd>
              {o.overage_events > 0 && (<><dt>Overage</dt><dd>{formatCount(o.overage_events)} events ≈ {formatMoney(o.estimated_overage_minor, o.plan.currency)}</dd></>)}
            </dl>
          </div>
          {paying && (
            <div className="card" aria-label="Payment">
              <h2>Payment for {paying.display_name || paying.name}</h2>
              <p>{formatMoney(paying.base_fee_minor, paying.currency)} per month, billed monthly{!paying.hard_cap && paying.overage_unit_events > 0 ? ', plus overage' : ''}. Paid plans need a payment method that our payment provider accepts; Ferry never sees card numbers.</p>
              <dl className="props">
                <dt>Payment method</dt>
                <dd>{o.payment_method ? o.payment_method.label : 'None on file yet: the payment provider checks one when you confirm.'}</dd>
              </dl>
              <p>
                <button type="button" className="btn btn-primary" onClick={() => change(paying.name)}>Confirm and switch to {paying.display_name || paying.name}</button>{' '}
                <button type="button" className="btn" onClick={() => setPaying(null)}>Cancel</button>
              </p>
            </div>
          )}
          <div className="card">
            <h2>Plans</h2>
            <div className="plans">
              {(o.plans ?? []).map((p) => (
                <div key={p.name} className={p.name === o.plan.name ? 'plan current' : 'plan'}>
                  <h3>{p.display_name || p.name}</h3>
                  <p className="plan-price">{formatMoney(p.base_fee_minor, p.currency)}<span className="muted"> / month</span></p>
                  <ul>
                    <li>{formatCount(p.events_per_month)} events / month{p.hard_cap ? ' (hard cap)' : ''}</li>
                    {!p.hard_cap && p.overage_unit_events > 0 && <li>then {formatMoney(p.overage_price_minor, p.currency)} per {formatCount(p.overage_unit_events)}</li>}
                    <li>{formatCount(p.max_endpoints)} endpoints</li>
                    <li>{formatCount(p.max_sources)} inbound sources, {formatBytes(p.captured_bytes_per_month)} of captured requests / month</li>
                    <li>{formatCount(p.retention_days)}-day logs</li>
                    <li>{formatCount(p.events_per_second)} events/s</li>
                  </ul>
                  {p.name === o.plan.name ? <p><strong>Current plan</strong></p> : me.role !== 'owner' ? (
                    <p className="muted">Only owners change the plan.</p>
                  ) : p.base_fee_minor > 0 && o.payments_configured === false ? (
                    <p className="muted">Online payment is not available here; contact us to move to {p.display_name || p.name}.</p>
                  ) : p.base_fee_minor > 0 ? (
                    <button type="button" className="btn" onClick={() => { setActionError(null); setPaying(p) }}>Switch to {p.display_name || p.name}…</button>
                  ) : (
                    <ConfirmButton className="btn" confirmLabel={`Yes, switch to ${p.display_name || p.name}`} onConfirm={() => change(p.name)}>Switch to {p.display_name || p.name}</ConfirmButton>
                  )}
                </div>
              ))}
            </div>
          </div>
        </>
      )}
      <div className="card">
        <h2>Invoices</h2>
        <ErrorMessage error={invoices.error} title="Could not load invoices" />
        {!invoices.loading && !invoices.error && invoices.items.length === 0 && <Empty title="No invoices yet">Invoices are issued at the start of each month for the month before.</Empty>}
        {invoices.items.length > 0 && (
          <div className="table-wrap">
            <table>
              <thead><tr><th>Period</th><th>Total</th><th>Events</th><th>Status</th><th>Lines</th></tr></thead>
              <tbody>
                {invoices.items.map((inv) => (
                  <tr key={inv.id}>
                    <td>{inv.period}<div className="muted">{formatTime(inv.created_at)}</div></td>
                    <td>{formatMoney(inv.total_minor, inv.currency)}</td>
                    <td>{formatCount(inv.events)}</td>
                    <td><Badge status={inv.status} />{inv.payment_error && <div className="field-error">{inv.payment_error}</div>}</td>
                    <td>{(inv.lines ?? []).map((l, i) => <div key={i}>{l.description}: {formatMoney(l.amount_minor, inv.currency)}</div>)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager list={invoices} label="Invoices" />
      </div>
    </section>
  )
}
