import type { Fragment } from "#infrastructure/extraction/layout";

/** A horizontal text fragment at (left, top) whose width is half a glyph height per character. */
export const fragment = (text: string, left: number, top: number, size = 10): Fragment => ({
  text,
  left,
  top,
  right: left + text.length * size * 0.5,
  bottom: top + size,
  size,
  horizontal: true,
  rtl: false,
});
