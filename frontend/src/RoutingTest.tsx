// RoutingTest.tsx is the endpoint form's test panel: it runs the filter
// being edited on a sample event through POST /endpoints/{id}/test-routing
// and shows whether the endpoint would get it, and with what body.
import { useState } from 'react'
import { api } from './api'
import { ErrorMessage, Field } from './components'
import { toRoutingTestBody } from './endpointForm'
import type { RoutingTestInput, RoutingTestResult } from './types'

/** runTest calls the API; tests pass their own. */
type RunTest = (endpointId: string, body: RoutingTestInput) => Promise<RoutingTestResult>

const postTest: RunTest = (endpointId, body) => api.post<RoutingTestResult>(`/endpoints/${endpointId}/test-routing`, body)

export function RoutingTest({ endpointId, filter, runTest = postTest }: { endpointId: string; filter: string; runTest?: RunTest }) {
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
      const body = toRoutingTestBody(type, data, filter)
      setResult(await runTest(endpointId, body))
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
    }
  }
  return (
    <section className="routing-test" aria-label="Test routing">
      <h3>Test routing</h3>
      <Field label="Sample event type">
        {(id) => <input id={id} value={type} onChange={(e) => setType(e.target.value)} />}
      </Field>
      <Field label="Sample event data (JSON)">
        {(id) => <textarea id={id} rows={4} value={data} onChange={(e) => setData(e.target.value)} />}
      </Field>
      <button className="btn" type="button" onClick={run} disabled={busy}>{busy ? 'Testing…' : 'Test with this filter'}</button>
      <ErrorMessage error={error} title="Could not test" />
      {result && (
        <div role="status" className={result.matched ? 'alert alert-ok' : 'alert alert-warn'}>
          <strong>{result.matched ? 'Matched: this endpoint would get the event.' : 'Not matched: this endpoint would not get the event.'}</strong>
          {result.filter_error && <p>Filter error: <code>{result.filter_error}</code></p>}
          {result.error && <p>Error: <code>{result.error}</code></p>}
          {result.matched && <pre className="code">{JSON.stringify(result.payload, null, 2)}</pre>}
        </div>
      )}
    </section>
  )
}
