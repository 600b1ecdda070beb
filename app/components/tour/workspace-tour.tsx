import { useEffect, useState } from "react";
import { GuidedTour, type TourStep } from "./guided-tour";
import { safeGet, safeSet, TOUR_KEYS, TOUR_START_DELAY_MS } from "./tour-state";

const WORKSPACE_TOUR_STEPS: TourStep[] = [
  {
    title: "Your workspace",
    body: "The documents of this workspace are listed under Related Files. Open one to read it here; several open documents become tabs.",
  },
  {
    title: "Ask your documents",
    body: "Type a question in the chat. The answer streams in with the pages it came from; click a citation to open the document at the cited passage.",
  },
  {
    title: "Read and capture",
    body: "Select text in a document to copy it, insert it in the chat, ask about it or have it explained. Capture mode (or Alt and drag) attaches an area of a page as an image.",
  },
  {
    title: "Chats and settings",
    body: "Start a new chat or go back to an earlier one from the chat list. Workspace Settings chooses the model and the answer language.",
  },
];

/** The workspace's tour: once per browser session (spec 001 §2). */
export function WorkspaceTour() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (safeGet(window.sessionStorage, TOUR_KEYS.workspaceShownThisSession) === "1") return;
    const timer = window.setTimeout(() => {
      safeSet(window.sessionStorage, TOUR_KEYS.workspaceShownThisSession, "1");
      setOpen(true);
    }, TOUR_START_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, []);
  return <GuidedTour label="Workspace tour" steps={WORKSPACE_TOUR_STEPS} open={open} onClose={() => setOpen(false)} />;
}
