import { useNavigate } from "@remix-run/react";
import { useCallback, useEffect, useRef } from "react";

export type WorkspaceSession = { activeFileIds: string[]; openFileId: string | null; activeConversationId: string | null };

/**
 * Keeps the server's copy of the screen's open tabs and chat (spec 001 §4):
 * sent when the page goes away or the screen unmounts, at once when another
 * chat becomes the active one, and before switching workspace. Answers the
 * switch. Read-only (an admin impersonating) it sends nothing: the tabs an
 * admin opens are not the user's, and the server refuses the write anyway
 * (the refusal showed as a console error after Exit Admin Mode).
 */
export function useWorkspaceSession(workspaceId: string, csrfToken: string, session: WorkspaceSession, readOnly = false): (id: string) => Promise<void> {
  const navigate = useNavigate();
  const sessionRef = useRef(session);
  sessionRef.current = session;
  const savedRef = useRef(false);

  const sendSession = useCallback(
    (mode: "beacon" | "fetch") => {
      if (readOnly) return Promise.resolve();
      const s = sessionRef.current;
      const url = `/api/workspaces/${encodeURIComponent(workspaceId)}/session`;
      if (mode === "beacon" && typeof navigator.sendBeacon === "function") {
        const form = new FormData();
        form.set("csrf", csrfToken);
        form.set("activeFileIds", JSON.stringify(s.activeFileIds));
        if (s.openFileId) form.set("openFileId", s.openFileId);
        if (s.activeConversationId) form.set("activeConversationId", s.activeConversationId);
        if (navigator.sendBeacon(url, form)) return Promise.resolve();
      }
      return fetch(url, {
        method: "POST",
        keepalive: true,
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrfToken },
        body: JSON.stringify(s),
      }).then(
        () => undefined,
        () => undefined,
      );
    },
    [workspaceId, csrfToken, readOnly],
  );

  useEffect(() => {
    const onPageHide = () => void sendSession("beacon");
    window.addEventListener("pagehide", onPageHide);
    return () => {
      window.removeEventListener("pagehide", onPageHide);
      // In-app navigation away (the component unmounts): save unless a switch already did.
      if (!savedRef.current) void sendSession("beacon");
    };
  }, [sendSession]);

  // A chat switched to (or just created) is saved at once: a reload's beacon can lose the race with the next page's loader.
  const savedConversation = useRef(session.activeConversationId);
  useEffect(() => {
    if (session.activeConversationId === savedConversation.current || !session.activeConversationId) return;
    savedConversation.current = session.activeConversationId;
    void sendSession("fetch");
  }, [session.activeConversationId, sendSession]);

  const switchTo = async (id: string) => {
    savedRef.current = true;
    await sendSession("fetch");
    navigate(`/workspace/${id}`);
  };

  return switchTo;
}
