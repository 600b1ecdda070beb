import { Text } from "@radix-ui/themes";
import type { ComponentProps } from "react";

/** "3 of 23 pages were read by OCR · 2 pages could not be read", beside a document in My Documents. */
export function ReadingNotes({ notes, mt }: { notes: string[]; mt?: ComponentProps<typeof Text>["mt"] }) {
  if (notes.length === 0) return null;
  return (
    <Text as="div" size="1" color="gray" mt={mt} data-testid="reading-notes">
      {notes.join(" · ")}
    </Text>
  );
}
