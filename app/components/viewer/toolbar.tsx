import { useEffect, useState, type ReactNode } from "react";
import { MinusIcon, PlusIcon } from "#app/components/icons";
import { clampPage, clampZoom, stepZoom, type ZoomRule } from "./zoom";

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
        <MinusIcon size={16} />
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
        <PlusIcon size={16} />
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
