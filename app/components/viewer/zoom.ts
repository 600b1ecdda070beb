/** Zoom and page rules (spec 001 §5). */

export const PDF_ZOOM = { min: 0.5, max: 5, step: 0.05 } as const;
export const TEXT_ZOOM = { min: 0.5, max: 5, step: 0.1 } as const;

export type ZoomRule = { min: number; max: number; step: number };

/** Rounds to the step grid (avoids 1.1500000000000001) and clamps to the range. */
export function clampZoom(value: number, rule: ZoomRule): number {
  if (!Number.isFinite(value)) return 1;
  const stepped = Math.round(value / rule.step) * rule.step;
  return Math.min(rule.max, Math.max(rule.min, Number(stepped.toFixed(4))));
}

export const stepZoom = (value: number, direction: 1 | -1, rule: ZoomRule) => clampZoom(value + direction * rule.step, rule);

/** Page input: an integer between 1 and the page count. */
export function clampPage(value: number, pageCount: number): number {
  const total = Math.max(1, Math.floor(pageCount) || 1);
  if (!Number.isFinite(value)) return 1;
  return Math.min(total, Math.max(1, Math.round(value)));
}
