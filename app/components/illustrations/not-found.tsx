/** Inline 404 illustration: a lost page with a magnifying glass. */
export function NotFoundIllustration({ className }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 360 240" role="img" aria-labelledby="nf-title">
      <title id="nf-title">A lost page under a magnifying glass</title>
      <ellipse cx="180" cy="214" rx="132" ry="12" fill="var(--gray-a3)" />
      <text x="180" y="118" textAnchor="middle" fontSize="120" fontWeight="800" fill="var(--accent-a4)" fontFamily="inherit">
        404
      </text>
      <g transform="translate(118 54) rotate(-8)">
        <path d="M0 8a8 8 0 0 1 8-8h62l26 26v110a8 8 0 0 1-8 8H8a8 8 0 0 1-8-8z" fill="var(--color-panel-solid)" stroke="var(--accent-8)" strokeWidth="3" />
        <path d="M70 0v18a8 8 0 0 0 8 8h18" fill="var(--accent-3)" stroke="var(--accent-8)" strokeWidth="3" />
        <rect x="16" y="46" width="56" height="7" rx="3.5" fill="var(--accent-6)" />
        <rect x="16" y="64" width="64" height="7" rx="3.5" fill="var(--gray-6)" />
        <rect x="16" y="82" width="44" height="7" rx="3.5" fill="var(--gray-6)" />
        <rect x="16" y="100" width="60" height="7" rx="3.5" fill="var(--gray-6)" />
        <circle cx="34" cy="124" r="3" fill="var(--gray-8)" />
        <circle cx="62" cy="124" r="3" fill="var(--gray-8)" />
        <path d="M40 134q8-6 16 0" fill="none" stroke="var(--gray-8)" strokeWidth="3" strokeLinecap="round" />
      </g>
      <g transform="translate(214 118)">
        <circle cx="28" cy="28" r="26" fill="var(--accent-a3)" stroke="var(--accent-10)" strokeWidth="7" />
        <path d="M47 47l26 26" stroke="var(--accent-11)" strokeWidth="11" strokeLinecap="round" />
        <path d="M16 20a14 14 0 0 1 12-8" stroke="#fff" strokeWidth="4" strokeLinecap="round" fill="none" opacity="0.8" />
      </g>
      <circle cx="70" cy="60" r="5" fill="var(--accent-7)" />
      <circle cx="300" cy="48" r="7" fill="var(--accent-5)" />
      <path d="M56 160l8 8m0-8-8 8" stroke="var(--gray-8)" strokeWidth="3" strokeLinecap="round" />
      <path d="M300 176l8 8m0-8-8 8" stroke="var(--gray-8)" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}
