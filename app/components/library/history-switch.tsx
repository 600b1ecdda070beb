import { SegmentedControl } from "@radix-ui/themes";
import { useNavigate } from "@remix-run/react";

const HISTORY_PAGES = { documents: "/history/documents", workspaces: "/history/workspaces" } as const;

/** The phone and tablet lists' switch (spec 000 §2), named like the desktop's pages: My Documents / My Workspaces (issue 44). */
export function HistorySwitch({ current }: { current: keyof typeof HISTORY_PAGES }) {
  const navigate = useNavigate();
  return (
    <SegmentedControl.Root
      value={current}
      onValueChange={(value) => (value !== current && value in HISTORY_PAGES ? navigate(HISTORY_PAGES[value as keyof typeof HISTORY_PAGES]) : undefined)}
      aria-label="History"
    >
      <SegmentedControl.Item value="documents">My Documents</SegmentedControl.Item>
      <SegmentedControl.Item value="workspaces">My Workspaces</SegmentedControl.Item>
    </SegmentedControl.Root>
  );
}
