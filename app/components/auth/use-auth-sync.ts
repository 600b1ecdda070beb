import { useEffect } from "react";
import type { SessionState } from "#app/routes/api.session";

/** localStorage key shared by the tabs of one browser (spec 000 §4: the authenticated flag, synchronised across tabs). */
export const AUTH_SYNC_KEY = "docuchat:auth";

/**
 * Keeps open tabs in step with the session: a tab that sees its signed-in
 * state change writes it to localStorage; the others get a `storage` event,
 * ask GET /api/session (the server decides, not the message), and reload
 * when their page no longer matches, so a logout in one tab logs all out.
 * Also re-checks when a tab becomes visible again.
 */
export function useAuthSync(signedIn: boolean) {
  useEffect(() => {
    const state = signedIn ? "signed-in" : "signed-out";
    try {
      if (window.localStorage.getItem(AUTH_SYNC_KEY)?.split(":")[0] !== state) {
        // The timestamp makes every change a new value, so `storage` fires in the other tabs.
        window.localStorage.setItem(AUTH_SYNC_KEY, `${state}:${Date.now()}`);
      }
    } catch {
      // Storage disabled: tabs still catch up when they become visible.
    }
  }, [signedIn]);

  useEffect(() => {
    let checking = false;
    const verify = async () => {
      if (checking) return;
      checking = true;
      try {
        const response = await fetch("/api/session", { cache: "no-store", credentials: "same-origin" });
        if (!response.ok) return;
        const session = (await response.json()) as SessionState;
        if (session.signedIn !== signedIn) window.location.reload();
      } catch {
        // Offline: try again on the next event.
      } finally {
        checking = false;
      }
    };
    const onStorage = (event: StorageEvent) => {
      if (event.key !== AUTH_SYNC_KEY || !event.newValue) return;
      if ((event.newValue.split(":")[0] === "signed-in") !== signedIn) void verify();
    };
    const onVisible = () => {
      if (document.visibilityState === "visible") void verify();
    };
    window.addEventListener("storage", onStorage);
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      window.removeEventListener("storage", onStorage);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [signedIn]);
}
