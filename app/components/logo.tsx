/** The DocuChat mark: a page with a speech bubble, in the accent colour. */
export function LogoMark({ size = 32, inverse = false }: { size?: number; inverse?: boolean }) {
  return (
    <svg width={size} height={size} viewBox="0 0 40 40" aria-hidden="true" focusable="false">
      <rect width="40" height="40" rx="10" fill={inverse ? "rgba(255,255,255,0.22)" : "var(--accent-9)"} />
      <path d="M12 9h11l6 6v12a2 2 0 0 1-2 2H12a2 2 0 0 1-2-2V11a2 2 0 0 1 2-2z" fill="#fff" opacity="0.95" />
      <path d="M23 9v6h6" fill="none" stroke="var(--accent-9)" strokeWidth="1.6" />
      <rect x="17" y="20" width="16" height="11" rx="3.5" fill="var(--accent-11)" />
      <path d="M21 31l-2 3.5 5-3.5z" fill="var(--accent-11)" />
      <circle cx="21.5" cy="25.5" r="1.2" fill="#fff" />
      <circle cx="25" cy="25.5" r="1.2" fill="#fff" />
      <circle cx="28.5" cy="25.5" r="1.2" fill="#fff" />
    </svg>
  );
}

export function Logo({ productName = "DocuChat", size = 32, hideText = false }: { productName?: string; size?: number; hideText?: boolean }) {
  return (
    <span className="dc-logo">
      <LogoMark size={size} />
      {hideText ? null : <span className="dc-logo__text">{productName}</span>}
    </span>
  );
}
