import { DropdownMenu, IconButton } from "@radix-ui/themes";
import { Tooltip } from "#app/components/tooltip";
import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { CloseIcon } from "#app/components/icons";
import { ChevronDownIcon } from "#app/components/icons";

/** About 100 px per tab; tabs that do not fit go into a 'More' dropdown (spec 001 §2). */
export const TAB_WIDTH = 100;
const MORE_WIDTH = 96;
const CLOSE_WIDTH = 44;

export type TabItem = { id: string; name: string };

/** Which tabs are shown in the bar: the first that fit, with the active one swapped in if it would overflow. */
export function splitTabs(tabs: TabItem[], activeId: string | null, width: number) {
  const fits = Math.max(1, Math.floor((width - CLOSE_WIDTH) / TAB_WIDTH));
  if (tabs.length <= fits) return { shown: tabs, overflow: [] as TabItem[] };
  const slots = Math.max(1, Math.floor((width - CLOSE_WIDTH - MORE_WIDTH) / TAB_WIDTH));
  let shown = tabs.slice(0, slots);
  const active = tabs.find((t) => t.id === activeId);
  if (active && !shown.includes(active)) shown = [...shown.slice(0, slots - 1), active];
  return { shown, overflow: tabs.filter((t) => !shown.includes(t)) };
}

export function DocumentTabs({
  tabs,
  activeId,
  onSelect,
  onClose,
  panelId,
}: {
  tabs: TabItem[];
  activeId: string | null;
  onSelect: (id: string) => void;
  onClose: (id: string) => void;
  panelId: string;
}) {
  const barRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(800);
  useEffect(() => {
    const el = barRef.current;
    if (!el) return;
    const measure = () => setWidth(el.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const { shown, overflow } = splitTabs(tabs, activeId, width);
  const active = tabs.find((t) => t.id === activeId) ?? null;

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    let next = -1;
    if (event.key === "ArrowRight") next = (index + 1) % shown.length;
    else if (event.key === "ArrowLeft") next = (index - 1 + shown.length) % shown.length;
    else if (event.key === "Home") next = 0;
    else if (event.key === "End") next = shown.length - 1;
    else if (event.key === "Delete") {
      event.preventDefault();
      onClose(shown[index].id);
      return;
    }
    if (next < 0) return;
    event.preventDefault();
    onSelect(shown[next].id);
    barRef.current?.querySelector<HTMLButtonElement>(`[data-tab-id="${CSS.escape(shown[next].id)}"]`)?.focus();
  };

  return (
    <div className="dc-wsx-tabs" ref={barRef}>
      <div role="tablist" aria-label="Open documents" className="dc-wsx-tabs__list">
        {shown.map((tab, i) => {
          const selected = tab.id === activeId;
          return (
            <button
              key={tab.id}
              type="button"
              role="tab"
              id={`doc-tab-${tab.id}`}
              data-tab-id={tab.id}
              data-testid="doc-tab"
              data-name={tab.name}
              aria-selected={selected}
              aria-controls={selected ? panelId : undefined}
              tabIndex={selected ? 0 : -1}
              className={`dc-wsx-tab${selected ? " is-active" : ""}`}
              title={`${tab.name} (Delete closes it)`}
              onClick={() => onSelect(tab.id)}
              onKeyDown={(e) => onKeyDown(e, i)}
            >
              <span className="dc-wsx-tab__label">{tab.name}</span>
              <span
                className="dc-wsx-tab__x"
                aria-hidden="true"
                onClick={(e) => {
                  e.stopPropagation();
                  onClose(tab.id);
                }}
              >
                <CloseIcon size={12} />
              </span>
            </button>
          );
        })}
      </div>
      {overflow.length > 0 ? (
        <DropdownMenu.Root>
          <DropdownMenu.Trigger>
            <button type="button" className="dc-wsx-tabs__more" data-testid="tabs-more">
              More ({overflow.length}) <ChevronDownIcon size={14} />
            </button>
          </DropdownMenu.Trigger>
          <DropdownMenu.Content align="end">
            {overflow.map((tab) => (
              <DropdownMenu.Item key={tab.id} onSelect={() => onSelect(tab.id)}>
                {tab.name}
              </DropdownMenu.Item>
            ))}
          </DropdownMenu.Content>
        </DropdownMenu.Root>
      ) : null}
      {active ? (
        <Tooltip content={`Close ${active.name}`}>
          <IconButton variant="ghost" color="gray" size="1" className="dc-wsx-tabs__close" aria-label={`Close ${active.name}`} onClick={() => onClose(active.id)} data-testid="close-tab">
            <CloseIcon size={14} />
          </IconButton>
        </Tooltip>
      ) : null}
    </div>
  );
}
