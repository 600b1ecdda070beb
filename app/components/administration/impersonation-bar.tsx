import { AlertDialog, Button, Flex, Text } from "@radix-ui/themes";
import { Form, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { CsrfInput } from "#app/components/csrf-input";

/** m:ss of what is left (spec 001 §2 'Exit Admin Mode (m:ss)'); never below 0:00. */
export function minutesSeconds(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}

const CHANNEL = "docuchat-admin-session";

/**
 * The admin-mode bar (spec 001 §2, §4): whose account this is, and 'Exit
 * Admin Mode (m:ss)' counting down to the server's deadline (first render on
 * the server's clock). At zero the page reloads: the server's own check ends
 * the impersonation and the admin is themself again. A tab that finds another
 * tab already holding the admin session shows 'Admin Session Warning'.
 *
 * The bar sits in the page's flow at the top (the workspace screen shrinks to
 * make room) and publishes its height as `--dc-admin-bar-height`, so what is
 * pinned to the top (the phone's toasts and top bar) starts below it: nothing
 * covers Exit Admin Mode, and the bar covers nothing (issue 34).
 */
export function ImpersonationBar({ deadline, serverNow, userName }: { deadline: string; serverNow: number; userName: string }) {
  const end = Date.parse(deadline);
  const [now, setNow] = useState(serverNow);
  const [otherTab, setOtherTab] = useState(false);
  const [listening, setListening] = useState(false);
  const navigation = useNavigation();
  const reloaded = useRef(false);
  const barRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const bar = barRef.current;
    if (!bar) return;
    const root = document.documentElement;
    const publish = () => root.style.setProperty("--dc-admin-bar-height", `${bar.offsetHeight}px`);
    publish();
    const observer = new ResizeObserver(publish);
    observer.observe(bar);
    return () => {
      observer.disconnect();
      root.style.removeProperty("--dc-admin-bar-height");
    };
  }, []);

  useEffect(() => {
    const offset = serverNow - Date.now();
    const tick = () => {
      const current = Date.now() + offset;
      setNow(current);
      if (current >= end && !reloaded.current) {
        reloaded.current = true;
        window.location.assign("/adminDashboard");
      }
    };
    tick();
    const timer = window.setInterval(tick, 1000);
    return () => window.clearInterval(timer);
  }, [serverNow, end]);

  useEffect(() => {
    if (typeof BroadcastChannel === "undefined") return;
    // The tab that was here first answers; a newer tab hearing an answer is the second one.
    const channel = new BroadcastChannel(CHANNEL);
    channel.onmessage = (message: MessageEvent<{ type: string }>) => {
      if (message.data?.type === "hello") channel.postMessage({ type: "here" });
      if (message.data?.type === "here") setOtherTab(true);
    };
    channel.postMessage({ type: "hello" });
    setListening(true);
    return () => channel.close();
  }, []);

  const closeTab = () => {
    window.close();
    window.setTimeout(() => window.alert("If this tab does not close automatically, please close it manually."), 300);
  };

  return (
    <div ref={barRef} className="dc-admin-bar" role="status" data-testid="admin-bar" data-listening={listening || undefined}>
      <Text size="2">
        Admin mode: viewing <strong>{userName}</strong>, read-only.
      </Text>
      <Form method="post" action="/admin/exit">
        <CsrfInput />
        <Button type="submit" color="amber" variant="solid" size="2" disabled={navigation.formAction === "/admin/exit"} data-testid="exit-admin-mode">
          Exit Admin Mode ({minutesSeconds(end - now)})
        </Button>
      </Form>
      <AlertDialog.Root open={otherTab}>
        <AlertDialog.Content maxWidth="440px" data-testid="admin-session-warning">
          <AlertDialog.Title>Admin Session Warning</AlertDialog.Title>
          <AlertDialog.Description size="3">
            An admin session is already open in another tab. Close this tab and continue there.
          </AlertDialog.Description>
          <Flex gap="3" mt="5" justify="end">
            <AlertDialog.Cancel>
              <Button variant="soft" color="gray" onClick={() => setOtherTab(false)}>
                Stay here
              </Button>
            </AlertDialog.Cancel>
            <AlertDialog.Action>
              <Button color="red" onClick={closeTab}>
                Close this tab
              </Button>
            </AlertDialog.Action>
          </Flex>
        </AlertDialog.Content>
      </AlertDialog.Root>
    </div>
  );
}
