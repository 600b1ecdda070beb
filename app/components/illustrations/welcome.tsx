/** Dashboard welcome illustration: documents flowing into a chat bubble. */
export function WelcomeIllustration({ className }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 320 200" aria-hidden="true" focusable="false">
      <circle cx="160" cy="104" r="88" fill="var(--accent-a2)" />
      <g transform="translate(58 44) rotate(-10)">
        <rect width="78" height="100" rx="10" fill="var(--color-panel-solid)" stroke="var(--accent-7)" strokeWidth="2.5" />
        <rect x="14" y="20" width="44" height="6" rx="3" fill="var(--accent-8)" />
        <rect x="14" y="36" width="50" height="6" rx="3" fill="var(--gray-6)" />
        <rect x="14" y="50" width="36" height="6" rx="3" fill="var(--gray-6)" />
        <rect x="14" y="64" width="46" height="6" rx="3" fill="var(--gray-6)" />
      </g>
      <g transform="translate(108 36)">
        <rect width="82" height="108" rx="10" fill="var(--color-panel-solid)" stroke="var(--accent-9)" strokeWidth="2.5" />
        <rect x="14" y="20" width="40" height="6" rx="3" fill="var(--accent-9)" />
        <rect x="14" y="36" width="54" height="6" rx="3" fill="var(--gray-6)" />
        <rect x="14" y="50" width="42" height="6" rx="3" fill="var(--gray-6)" />
        <rect x="14" y="64" width="50" height="6" rx="3" fill="var(--gray-6)" />
        <rect x="14" y="78" width="30" height="6" rx="3" fill="var(--gray-6)" />
      </g>
      <g transform="translate(178 86)">
        <rect width="96" height="62" rx="16" fill="var(--accent-9)" />
        <path d="M22 62l-6 16 20-16z" fill="var(--accent-9)" />
        <circle cx="30" cy="31" r="6" fill="#fff" />
        <circle cx="48" cy="31" r="6" fill="#fff" />
        <circle cx="66" cy="31" r="6" fill="#fff" />
      </g>
      <path d="M250 42l4 10 10 4-10 4-4 10-4-10-10-4 10-4z" fill="var(--amber-9)" />
      <path d="M62 160l3 7 7 3-7 3-3 7-3-7-7-3 7-3z" fill="var(--accent-8)" />
    </svg>
  );
}
