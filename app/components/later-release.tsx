import { Tooltip } from "@radix-ui/themes";
import type { ReactNode } from "react";

export const LATER_RELEASE = "Available in a later release";

/**
 * A control for a feature that is not built yet: focusable and described, but
 * never navigates or submits. aria-disabled (not `disabled`) keeps it in the tab
 * order and lets the tooltip explain why.
 */
export function LaterReleaseButton({
  children,
  tooltip = LATER_RELEASE,
  className,
  side = "right",
}: {
  children: ReactNode;
  tooltip?: string;
  className?: string;
  side?: "top" | "right" | "bottom" | "left";
}) {
  return (
    <Tooltip content={tooltip} side={side}>
      <button
        type="button"
        aria-disabled="true"
        className={["dc-disabled-control", className].filter(Boolean).join(" ")}
        onClick={(event) => event.preventDefault()}
      >
        {children}
      </button>
    </Tooltip>
  );
}
