/** Decorative art for the testimonial panel on the auth pages. */
export function AuthArt({ className }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 360 220" aria-hidden="true" focusable="false">
      <rect x="20" y="30" width="150" height="170" rx="16" fill="rgba(255,255,255,0.14)" />
      <rect x="40" y="56" width="80" height="10" rx="5" fill="rgba(255,255,255,0.85)" />
      <rect x="40" y="80" width="110" height="8" rx="4" fill="rgba(255,255,255,0.45)" />
      <rect x="40" y="98" width="96" height="8" rx="4" fill="rgba(255,255,255,0.45)" />
      <rect x="40" y="116" width="104" height="8" rx="4" fill="rgba(255,255,255,0.45)" />
      <rect x="40" y="146" width="60" height="26" rx="8" fill="rgba(255,255,255,0.3)" />
      <rect x="150" y="20" width="190" height="70" rx="18" fill="#fff" />
      <rect x="170" y="40" width="120" height="8" rx="4" fill="var(--accent-9)" />
      <rect x="170" y="58" width="150" height="8" rx="4" fill="var(--gray-5)" />
      <rect x="190" y="120" width="150" height="80" rx="18" fill="rgba(255,255,255,0.92)" />
      <rect x="210" y="140" width="100" height="8" rx="4" fill="var(--gray-6)" />
      <rect x="210" y="158" width="110" height="8" rx="4" fill="var(--gray-6)" />
      <rect x="210" y="176" width="40" height="8" rx="4" fill="var(--accent-8)" />
    </svg>
  );
}
