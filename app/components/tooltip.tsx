import { Tooltip as ThemesTooltip } from "@radix-ui/themes";
import { cloneElement, isValidElement, type ComponentPropsWithoutRef, type ReactElement } from "react";

/**
 * Radix Themes' Tooltip, except on the server: a closed tooltip puts nothing in
 * the page but its trigger marked `data-state="closed"`, so the server renders
 * just that, not the dozen closed-popper components behind it, which cost a
 * signed-in page a measurable share of its render (docs/decisions/181). The
 * browser renders the full Tooltip and hydrates the same trigger element.
 *
 * The one difference hydration could see: ids from `useId` *inside* the trigger
 * (the Tooltip adds a level to React's id tree). Triggers here are buttons,
 * links and icons, which make no ids; do not put an id-making component inside one.
 */
export function Tooltip(props: ComponentPropsWithoutRef<typeof ThemesTooltip>) {
  const closedOnServer = typeof document === "undefined" && !props.open && !props.defaultOpen && !props.forceMount;
  if (closedOnServer && isValidElement(props.children)) {
    return cloneElement(props.children as ReactElement<{ "data-state"?: string }>, { "data-state": "closed" });
  }
  return <ThemesTooltip {...props} />;
}
