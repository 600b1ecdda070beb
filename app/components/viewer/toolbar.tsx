import { useEffect, useState, type ReactNode } from "react";
import { clampPage, clampZoom, stepZoom, type ZoomRule } from "./zoom";

type P = { size?: number };
const svg = (size = 16) => ({
  width: size,
  height: size,
  viewBox: "0 0 24 24",
  fill: "none",
  stroke: "currentColor",
  strokeWidth: 2,
  strokeLinecap: "round" as const,
  strokeLinejoin: "round" as const,
  "aria-hidden": true as const,
  focusable: "false" as const,
});
export const ThumbsIcon = ({ size }: P) => (
  <svg {...svg(size)}>
    <rect x="3" y="3" width="7" height="8" rx="1" />
    <rect x="3" y="13" width="7" height="8" rx="1" />
    <path d="M14 5h7M14 9h5M14 15h7M14 19h5" />
  </svg>
);
export const PrevIcon = ({ size }: P) => (
  <svg {...svg(size)}>
    <path d="M18 15l-6-6-6 6" />
  </svg>
);
export const NextIcon = ({ size }: P) => (
  <svg {...svg(size)}>
    <path d="M6 9l6 6 6-6" />
  </svg>
);
export const MinusIcon = ({ size }: P) => (
  <svg {...svg(size)}>
    <path d="M5 12h14" />
  </svg>
);
export const PlusIcon = ({ size }: P) => (
  <svg {...svg(size)}>
    <path d="M12 5v14M5 12h14" />
  </svg>
);
export const FitWidthIcon = ({ size }: P) => (
  <svg {...svg(size)}>
    <path d="M3 12h18M7 8l-4 4 4 4M17 8l4 4-4 4" />
  </svg>
);
export const CaptureIcon = ({ size }: P) => (
  <svg {...svg(size)}>
    <path d="M4 8V5a1 1 0 0 1 1-1h3M16 4h3a1 1 0 0 1 1 1v3M20 16v3a1 1 0 0 1-1 1h-3M8 20H5a1 1 0 0 1-1-1v-3" />
    <circle cx="12" cy="12" r="3" />
  </svg>
);
export const LayoutIcon = ({ size }: P) => (
  <svg {...svg(size)}>
    <rect x="4" y="4" width="16" height="5" rx="1" />
    <rect x="4" y="12" width="7" height="8" rx="1" />
    <rect x="14" y="12" width="6" height="8" rx="1" />
  </svg>
);

/** Page input: typed freely, clamped to 1..pageCount on Enter or blur (spec 001 §5). */
export function PageInput({ current, pageCount, onGo, id }: { current: number; pageCount: number; onGo: (page: number) => void; id: string }) {
  const [value, setValue] = useState(String(current));
  const [editing, setEditing] = useState(false);
  useEffect(() => {
    if (!editing) setValue(String(current));
  }, [current, editing]);
  const commit = () => {
    const page = clampPage(Number.parseInt(value, 10), pageCount);
    setValue(String(page));
    setEditing(false);
    onGo(page);
  };
  return (
    <span className="dc-viewer-tb__page">
      <label htmlFor={id} className="dc-viewer-sr">
        Page number
      </label>
      <input
        id={id}
        className="dc-viewer-tb__input"
        inputMode="numeric"
        value={value}
        data-testid="page-input"
        onFocus={(e) => {
          setEditing(true);
          e.currentTarget.select();
        }}
        onChange={(e) => setValue(e.currentTarget.value.replace(/[^\d]/g, ""))}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            commit();
          } else if (e.key === "Escape") {
            setValue(String(current));
            setEditing(false);
            e.currentTarget.blur();
          }
        }}
      />
      <span className="dc-viewer-tb__of" data-testid="page-count">
        / {pageCount}
      </span>
    </span>
  );
}

/** Zoom: −, a percent input, + (spec 001 §5: 50–500 %, the step given by `rule`). */
export function ZoomControls({ zoom, rule, onZoom, id }: { zoom: number; rule: ZoomRule; onZoom: (zoom: number) => void; id: string }) {
  const percent = Math.round(zoom * 100);
  const [value, setValue] = useState(String(percent));
  const [editing, setEditing] = useState(false);
  useEffect(() => {
    if (!editing) setValue(String(percent));
  }, [percent, editing]);
  const commit = () => {
    const next = clampZoom(Number.parseFloat(value) / 100, rule);
    setEditing(false);
    setValue(String(Math.round(next * 100)));
    onZoom(next);
  };
  return (
    <span className="dc-viewer-tb__zoom">
      <button type="button" className="dc-viewer-tb__btn" aria-label="Zoom out" title="Zoom out (-)" disabled={zoom <= rule.min} onClick={() => onZoom(stepZoom(zoom, -1, rule))}>
        <MinusIcon />
      </button>
      <label htmlFor={id} className="dc-viewer-sr">
        Zoom percent
      </label>
      <input
        id={id}
        className="dc-viewer-tb__input dc-viewer-tb__input--zoom"
        inputMode="numeric"
        value={value}
        data-testid="zoom-input"
        onFocus={(e) => {
          setEditing(true);
          e.currentTarget.select();
        }}
        onChange={(e) => setValue(e.currentTarget.value.replace(/[^\d.]/g, ""))}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            commit();
          }
        }}
      />
      <span className="dc-viewer-tb__of" aria-hidden="true">
        %
      </span>
      <button type="button" className="dc-viewer-tb__btn" aria-label="Zoom in" title="Zoom in (+)" disabled={zoom >= rule.max} onClick={() => onZoom(stepZoom(zoom, 1, rule))}>
        <PlusIcon />
      </button>
    </span>
  );
}

export function ToolbarButton({
  label,
  pressed,
  disabled,
  onClick,
  children,
  testId,
  className,
}: {
  className?: string;
  label: string;
  pressed?: boolean;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <button
      type="button"
      className={`dc-viewer-tb__btn${pressed ? " is-on" : ""}${className ? ` ${className}` : ""}`}
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      disabled={disabled}
      onClick={onClick}
      data-testid={testId}
    >
      {children}
    </button>
  );
}

export function Toolbar({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="dc-viewer-tb" role="toolbar" aria-label={label}>
      {children}
    </div>
  );
}

export const Divider = () => <span className="dc-viewer-tb__sep" aria-hidden="true" />;
