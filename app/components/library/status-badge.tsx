import { Badge } from "@radix-ui/themes";
import { Tooltip } from "#app/components/tooltip";
import { statusDisplay } from "./format";

/** Spec 000 §4 document status colours; the raw status shows beside Failed on desktop, the reason in a tooltip. */
export function StatusBadge({ status, reason, showRaw = false }: { status: string; reason?: string | null; showRaw?: boolean }) {
  const tone = statusDisplay(status);
  const badge = (
    <Badge color={tone.color} variant="soft" highContrast radius="full" size="2" data-testid="status-badge" data-status={status} tabIndex={tone.color === "red" && reason ? 0 : undefined}>
      <span className={`dc-status-dot dc-status-dot--${tone.color}`} aria-hidden="true" />
      {tone.label}
      {showRaw && tone.color === "red" ? <span className="dc-status-raw">({status})</span> : null}
    </Badge>
  );
  return tone.color === "red" && reason ? <Tooltip content={reason}>{badge}</Tooltip> : badge;
}
