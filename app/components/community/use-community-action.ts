import { useFetcher } from "@remix-run/react";
import { useEffect } from "react";
import { useToast } from "#app/components/toast";
import { useCsrfToken } from "#app/components/use-csrf";
import type { CommunityDetailAction } from "./community-detail.server";

/** Posts one intent of the detail page's action with CSRF, and toasts its answer; `onDone` runs after a success. */
export function useCommunityAction(onDone?: () => void) {
  const fetcher = useFetcher<CommunityDetailAction>();
  const csrf = useCsrfToken();
  const toast = useToast();
  useEffect(() => {
    const result = fetcher.data;
    if (fetcher.state !== "idle" || !result) return;
    toast.push({ type: result.ok ? "success" : "error", message: result.message });
    if (result.ok) onDone?.();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.data, fetcher.state]);
  const submit = (intent: string, fields: Record<string, string | string[]> = {}) => {
    const form = new FormData();
    form.set("csrf", csrf);
    form.set("intent", intent);
    for (const [name, value] of Object.entries(fields)) for (const one of Array.isArray(value) ? value : [value]) form.append(name, one);
    fetcher.submit(form, { method: "post" });
  };
  return { submit, busy: fetcher.state !== "idle", result: fetcher.data };
}
