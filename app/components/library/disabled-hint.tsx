import { Button } from "@radix-ui/themes";
import { Tooltip } from "#app/components/tooltip";
import type { ComponentProps, ReactNode } from "react";

/**
 * A button that may be unavailable with a reason: aria-disabled (not `disabled`)
 * keeps it focusable so the tooltip can say why.
 */
export function HintButton({
  disabled,
  hint,
  children,
  onClick,
  ...props
}: Omit<ComponentProps<typeof Button>, "disabled"> & { disabled: boolean; hint: string; children: ReactNode }) {
  const button = (
    <Button
      {...props}
      aria-disabled={disabled || undefined}
      className={[props.className, disabled ? "dc-disabled-control" : ""].filter(Boolean).join(" ")}
      onClick={(event) => {
        if (disabled) {
          event.preventDefault();
          return;
        }
        onClick?.(event);
      }}
    >
      {children}
    </Button>
  );
  return disabled ? <Tooltip content={hint}>{button}</Tooltip> : button;
}
