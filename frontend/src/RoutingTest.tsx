// RoutingTest.tsx is the endpoint form's test panel: it runs the filter
// and transformation being edited on a sample event through POST
// /endpoints/{id}/test-routing and shows whether the endpoint would get
// it, and with what body and headers (or that the transformation would
// cancel or fail the delivery).
import { useState } from 'react'
import { api } from './api'
import { ErrorMessage, Field } from './components'
import { toRoutingTestBody } from './endpointForm'
import type { RoutingTestInput, RoutingTestResult } from './types'

/** runTest calls the API; tests pass their own. */
type RunTest = (endpointId: string, body: RoutingTestInput) => Promise<RoutingTestResult>

const postTest: RunTest = (endpointId, body) => api.post<RoutingTestResult>(`/endpoints/${endpointId}/test-routing`, body)

/** verdict is the panel's one-line answer. */
export function verdict(r: RoutingTestResult): { text: string; tone: 'ok' | 'warn' | 'error' } {
  // Errors first: a filter that cannot be evaluated, or a transformation
  // that throws, is a bug to fix, not an event that merely does not match.
  if (r.filter_error) return { text: 'Filter error: the filter could not be evaluated on this event, so the endpoint would not get it. Fix the filter (test for optional fields with has() or in).', tone: 'error' }
  if (r.error) {
    return r.matched
      ? { text: 'Transformation failed: the delivery would be dropped (transformation_error), nothing sent.', tone: 'error' }
      : { text: 'Transformation failed on this sample (and the event does not match this endpoint).', tone: 'error' }
  }
  if (!r.matched) return { text: 'Not matched: this endpoint would not get the event.', tone: 'warn' }
  if (r.cancelled) return { text: 'Cancelled by the transformation: the delivery would be dropped, nothing sent.', tone: 'warn' }
  return { text: 'Matched: this endpoint would get the event.', tone: 'ok' }
}

export function RoutingTest({ endpointId, filter, transformation, runTest = postTest }: {
  endpointId: string; filter: string
  /** transformation being edited; undefined for queue endpoints (none). */
  transformation?: string
  runTest?: RunTest
}) {
  const [type, setType] = useState('order.created')
  const [data, setData] = useState('{"amount": 1500, "currency": "EUR"}')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const [result, setResult] = useState<RoutingTestResult | null>(null)

  async function run() {
    setError(null)
    setResult(null)
    setBusy(true)
    try {
      const body = toRoutingTestBody(type, data, filter, transformation)
      setResult(await runTest(endpointId, body))
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
    }
  }
  const v = result && verdict(result)
  const headers = Object.entries(result?.headers ?? {})
  return (
    <section className="routing-test" aria-label="Test routing">
      <h3>Test routing</h3>
      <Field label="Sample event type">
        {(id) => <input id={id} value={type} onChange={(e) => setType(e.target.value)} />}
      </Field>
      <Field label="Sample event data (JSON)">
        {(id) => <textarea id={id} rows={4} value={data} onChange={(e) => setData(e.target.value)} />}
      </Field>
      <button className="btn" type="button" onClick={run} disabled={busy}>
        {busy ? 'Testing…' : transformation?.trim() ? 'Test with this filter and transformation' : 'Test with this filter'}
      </button>
      <ErrorMessage error={error} title="Could not test" />
      {result && v && (
        <div role="status" className={`alert alert-${v.tone} routing-result`}>
          <strong>{v.text}</strong>
          {result.filter_error && <p>Filter error: <code>{result.filter_error}</code></p>}
          {result.error && <p>Transformation error: <code data-testid="transformation-error">{result.error}</code></p>}
          {result.matched && !result.error && !result.cancelled && (
            <>
              <h4>Body</h4>
              <pre className="code" data-testid="test-payload">{JSON.stringify(result.payload, null, 2)}</pre>
              <h4>Custom headers</h4>
              {headers.length === 0
                ? <p className="muted">none (Ferry's webhook-* signature headers are always added)</p>
                : <pre className="code" data-testid="test-headers">{headers.map(([k, h]) => `${k}: ${h}`).join('\n')}</pre>}
            </>
          )}
        </div>
      )}
    </section>
  )
}
