// Logo.tsx: Ferry's mark, drawn in SVG so it renders without emoji fonts.
export function Logo({ size = 22 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false" className="logo">
      <path d="M3 15h18l-2.5 4.5a2 2 0 0 1-1.75 1H7.25a2 2 0 0 1-1.75-1Z" fill="currentColor" />
      <path d="M7 14V9h10v5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round" />
      <path d="M11 9V5h3" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  )
}
