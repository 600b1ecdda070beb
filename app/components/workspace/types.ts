/** Shapes the workspace pages and API routes share (browser-safe: no server imports). */

export type WorkspaceTypeName = "Conversation" | "Resume Builder";
export type WorkspaceStatusName = "CREATING" | "ACTIVE" | "FAILED";

export type WorkspaceSummary = {
  id: string;
  name: string;
  description: string;
  type: WorkspaceTypeName;
  status: WorkspaceStatusName;
  failureReason: string | null;
  documentCount: number;
  requestedCount: number;
  createdAt: string;
  lastUsedAt: string;
};

export type AttachResultView = { documentId: string; status: "ATTACH_SUCCESS" | "ATTACH_FAILED"; reason: string | null };

export type LaunchProgress = {
  workspaceId: string;
  status: WorkspaceStatusName;
  type: WorkspaceTypeName;
  name: string;
  runStatus: "running" | "completed" | "failed" | "cancelled" | null;
  currentStep: string | null;
  lastError: string | null;
  failureReason: string | null;
  attachResults: AttachResultView[];
};

/** A document as the file pickers need it. */
export type PickableDocument = { id: string; name: string; status: string; kind: string | null; pageCount: number; createdAt: string };

/** Document statuses that cannot be picked (spec 000 §2 wizard file picker). */
export function pickState(status: string): { pickable: boolean; label: string | null } {
  const s = status.toUpperCase();
  if (s === "ACTIVE" || s === "COMPLETED" || s === "SUCCESSFUL") return { pickable: true, label: null };
  if (s === "PREPARING_CONTEXT" || s === "UPLOADING" || s === "INPROGRESS") return { pickable: false, label: "In Progress" };
  return { pickable: false, label: "Failed" };
}

/** 'Failed to attach document: {reason or Unknown reason}' (spec 000 §8). */
export const attachFailureMessage = (reason: string | null | undefined) => `Failed to attach document: ${reason || "Unknown reason"}`;

/** dd/MM for the quick workspace's default name. */
export function quickWorkspaceName(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `Quick Workspace ${pad(now.getDate())}/${pad(now.getMonth() + 1)}`;
}

/** Client JSON call with the CSRF header (root loader's token). */
export async function apiJson<T>(url: string, init: { method: string; body?: unknown; csrfToken: string; keepalive?: boolean }): Promise<T> {
  const response = await fetch(url, {
    method: init.method,
    headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": init.csrfToken },
    credentials: "same-origin",
    keepalive: init.keepalive,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (!response.ok) {
    let message = "Something went wrong";
    let code = "HTTP";
    try {
      const body = (await response.json()) as { message?: string; code?: string };
      message = body.message || message;
      code = body.code || code;
    } catch {
      // keep the fallback
    }
    throw Object.assign(new Error(message), { code, status: response.status });
  }
  return (await response.json()) as T;
}
