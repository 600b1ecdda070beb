import { Button, IconButton } from "@radix-ui/themes";
import { Tooltip } from "#app/components/tooltip";
import { useCallback, useEffect, useState } from "react";
import { CloseIcon, CompassIcon } from "#app/components/icons";
import { GuidedTour, type TourStep } from "./guided-tour";
import { RESTART_APP_TOUR_EVENT, safeGet, safeSet, shouldStartAppTour, takeAppTourRequest, TOUR_KEYS, TOUR_START_DELAY_MS } from "./tour-state";

/** The six centred steps of the app tour (spec 000 §2). */
const APP_TOUR_STEPS: TourStep[] = [
  {
    title: "Welcome to DocuChat",
    body: "Upload your documents, group them into workspaces and chat with an AI about them. Every answer cites the page it came from. This short tour shows you around.",
  },
  {
    title: "Your dashboard",
    body: "Home shows what you have uploaded, picks up the workspace you used last and starts something new from the action cards.",
  },
  {
    title: "The navigation bar",
    body: "Move between Home, Upload Files, My Documents, My Workspaces and Community from the bar on the left. On a phone or tablet, open it with the menu button at the top.",
  },
  {
    title: "Workspaces",
    body: "A workspace groups documents for one purpose. Open one to read the documents beside a chat; click a citation to open the document at the cited passage.",
  },
  {
    title: "My Documents",
    body: "Everything you upload lives in My Documents: follow its status while it is read, search it, download it or delete it.",
  },
  {
    title: "Settings",
    body: "Your profile, chat settings and AI keys are under Settings at the bottom of the bar. 'Restart App Tour' there shows this tour again.",
  },
];

/**
 * The dashboard's tour: starts by itself for a new user (once, 1 s after
 * load), on request from Settings, or from its button, which can be hidden
 * and is shown again by 'Restart App Tour'.
 */
export function AppTour({ userId, usageTotal }: { userId: string; usageTotal: number }) {
  const [open, setOpen] = useState(false);
  const [buttonHidden, setButtonHidden] = useState(true);

  const start = useCallback(() => {
    safeSet(window.localStorage, TOUR_KEYS.appSeen(userId), "1");
    safeSet(window.sessionStorage, TOUR_KEYS.appShownThisSession, "1");
    setButtonHidden(false);
    setOpen(true);
  }, [userId]);

  useEffect(() => {
    setButtonHidden(safeGet(window.localStorage, TOUR_KEYS.appButtonHidden) === "1");
    const requested = takeAppTourRequest();
    const automatic = shouldStartAppTour({
      usageTotal,
      seen: safeGet(window.localStorage, TOUR_KEYS.appSeen(userId)) === "1",
      shownThisSession: safeGet(window.sessionStorage, TOUR_KEYS.appShownThisSession) === "1",
    });
    const timer = requested || automatic ? window.setTimeout(start, TOUR_START_DELAY_MS) : 0;
    const onRestart = () => {
      takeAppTourRequest();
      start();
    };
    window.addEventListener(RESTART_APP_TOUR_EVENT, onRestart);
    return () => {
      window.clearTimeout(timer);
      window.removeEventListener(RESTART_APP_TOUR_EVENT, onRestart);
    };
  }, [usageTotal, userId, start]);

  const hideButton = () => {
    safeSet(window.localStorage, TOUR_KEYS.appButtonHidden, "1");
    setButtonHidden(true);
  };

  return (
    <>
      {buttonHidden ? null : (
        <div className="dc-tour-launcher" data-testid="tour-launcher">
          <Button size="2" variant="soft" onClick={start}>
            <CompassIcon size={16} />
            App tour
          </Button>
          <Tooltip content="Hide the tour button (Settings → Restart App Tour shows it again)">
            <IconButton size="1" variant="ghost" color="gray" aria-label="Hide the tour button" onClick={hideButton}>
              <CloseIcon size={14} />
            </IconButton>
          </Tooltip>
        </div>
      )}
      <GuidedTour label="App tour" steps={APP_TOUR_STEPS} open={open} onClose={() => setOpen(false)} />
    </>
  );
}
