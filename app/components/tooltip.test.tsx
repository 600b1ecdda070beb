import { IconButton, Popover, Theme, Tooltip as ThemesTooltip } from "@radix-ui/themes";
import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Tooltip } from "./tooltip";

/**
 * The server's short cut must put in the page exactly what Radix's closed
 * tooltip puts there, or hydration would adopt the wrong element.
 */
const page = (tree: ReactElement) => renderToString(<Theme>{tree}</Theme>);

describe("a tooltip rendered on the server", () => {
  it("is the trigger alone, as Radix renders a closed tooltip", () => {
    const triggers: ReactElement[] = [
      <button type="button" key="plain">Save</button>,
      <IconButton key="icon" variant="ghost" aria-label="Refresh" disabled>
        <svg aria-hidden="true" />
      </IconButton>,
      <span key="wrapper" tabIndex={0} className="dc-chat-send-wrap">
        <button type="button" disabled>Send</button>
      </span>,
    ];
    for (const trigger of triggers) {
      const ours = page(<Tooltip content="Says why">{trigger}</Tooltip>);
      expect(ours).toBe(page(<ThemesTooltip content="Says why">{trigger}</ThemesTooltip>));
      expect(ours).toContain('data-state="closed"');
      expect(ours).not.toContain("Says why");
    }
  });

  it("keeps a popover trigger's own attributes when the popover's button has a tooltip", () => {
    const withTooltip = (Hint: typeof Tooltip | typeof ThemesTooltip) => (
      <Popover.Root>
        <Hint content="Settings">
          <Popover.Trigger>
            <IconButton aria-label="Settings">
              <svg aria-hidden="true" />
            </IconButton>
          </Popover.Trigger>
        </Hint>
      </Popover.Root>
    );
    const ours = page(withTooltip(Tooltip));
    expect(ours).toBe(page(withTooltip(ThemesTooltip)));
    expect(ours).toContain('aria-haspopup="dialog"');
  });

  it("renders in full when it is open", () => {
    const open = page(
      <Tooltip content="Shown at once" open>
        <button type="button">Hover me</button>
      </Tooltip>,
    );
    expect(open).toBe(
      page(
        <ThemesTooltip content="Shown at once" open>
          <button type="button">Hover me</button>
        </ThemesTooltip>,
      ),
    );
  });
});
