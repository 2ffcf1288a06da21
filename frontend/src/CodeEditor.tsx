// CodeEditor.tsx is a plain-textarea code editor: monospace, no wrapping,
// no spell check, with a line-number gutter that scrolls with the text,
// so "Line 3:14" in an error points somewhere visible. A textarea keeps
// the portal within its Content-Security-Policy (style-src 'self'):
// editor libraries that inject <style> elements at run time would not be.
import { useRef } from 'react'

export function CodeEditor({ id, value, onChange, rows = 8, describedBy, placeholder }: {
  id: string; value: string; onChange: (value: string) => void; rows?: number; describedBy?: string; placeholder?: string
}) {
  const gutter = useRef<HTMLDivElement>(null)
  const lines = Math.max(value.split('\n').length, rows)
  return (
    <div className="code-editor">
      <div className="code-gutter" aria-hidden="true" ref={gutter} data-testid="code-gutter">
        {Array.from({ length: lines }, (_, i) => <span key={i}>{i + 1}</span>)}
      </div>
      <textarea
        id={id} rows={rows} value={value} aria-describedby={describedBy} placeholder={placeholder}
        spellCheck={false} autoCapitalize="off" autoComplete="off" autoCorrect="off" wrap="off"
        onChange={(e) => onChange(e.target.value)}
        onScroll={(e) => { if (gutter.current) gutter.current.scrollTop = e.currentTarget.scrollTop }}
      />
    </div>
  )
}
