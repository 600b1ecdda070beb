/**
 * When the guided tours run (spec 000 §2 Dashboard, 001 §2 Chat panel).
 *
 * The app tour starts by itself once, 1 s after the dashboard loads, for a
 * user with no usage yet who has not seen it on this browser, and at most
 * once per browser session. 'Restart App Tour' asks for it again from any
 * page. The workspace tour runs once per browser session. Flags are kept in
 * the browser (the spec keeps them locally), per user for the app tour.
 */
export const TOUR_START_DELAY_MS = 1_000;

export const TOUR_KEYS = {
  appSeen: (userId: string) => `docuchat.tour.app.seen.${userId}`,
  appShownThisSession: "docuchat.tour.app.session",
  appButtonHidden: "docuchat.tour.app.button-hidden",
  appRequested: "docuchat.tour.app.requested",
  workspaceShownThisSession: "docuchat.tour.workspace.session",
} as const;

/** The app tour's own start: zero usage, never seen here, not yet shown this session. */
export function shouldStartAppTour(input: { usageTotal: number; seen: boolean; shownThisSession: boolean }): boolean {
  return input.usageTotal === 0 && !input.seen && !input.shownThisSession;
}

/**
 * A tour opened. The slide-in menu (1024 px and narrower) closes: it would
 * otherwise sit above the tour's dialog, and Skip could not be clicked (issue 34).
 */
export const TOUR_OPENED_EVENT = "docuchat:tour-opened";

/** A page asks for the app tour (Settings → Restart App Tour); the dashboard starts it when it loads or is already open. */
export const RESTART_APP_TOUR_EVENT = "docuchat:restart-app-tour";

export function requestAppTour(): void {
  safeSet(window.sessionStorage, TOUR_KEYS.appRequested, "1");
  safeSet(window.localStorage, TOUR_KEYS.appButtonHidden, "0");
  window.dispatchEvent(new Event(RESTART_APP_TOUR_EVENT));
}

/** Reads and clears a pending restart request. */
export function takeAppTourRequest(): boolean {
  const requested = safeGet(window.sessionStorage, TOUR_KEYS.appRequested) === "1";
  if (requested) safeSet(window.sessionStorage, TOUR_KEYS.appRequested, "0");
  return requested;
}

// Storage can be unavailable (private modes, blocked cookies): the tour then behaves as if never seen.
export function safeGet(storage: Storage, key: string): string | null {
  try {
    return storage.getItem(key);
  } catch {
    return null;
  }
}

export function safeSet(storage: Storage, key: string, value: string): void {
  try {
    storage.setItem(key, value);
  } catch {
    // nothing to keep
  }
}
