import { TOKENS } from "#application/tokens";
import type { WorkflowEngine } from "#application/ports/workflow";
import { isDomainError } from "#domain/shared/domain-error";
import { workspaceLaunchWorkflowId } from "#workflows/workspace-launch";
import type { WorkspaceReadModel } from "#projections/workspace/workspaces.queries";
import { getRuntime, getServices } from "#app/utils/services.server";
import { redirectWithToast } from "#app/utils/toast.server";
import type { LaunchProgress, WorkspaceSummary } from "./types";

/** HTTP status per workspace DomainError code; a foreign id is a 404 like a missing one. */
const STATUS: Record<string, number> = {
  CONCURRENT_CHANGE: 409,
  WORKSPACE_NOT_EXIST: 404,
  WORKSPACE_LIMIT: 422,
  VALIDATION: 400,
};

export type WorkspaceApiError = { code: string; message: string; field?: string };

/** DomainErrors become `{code, message}` with a fitting status; anything else is logged and answered generically. */
export async function workspaceErrorResponse(error: unknown): Promise<Response> {
  if (error instanceof Response) return error;
  if (isDomainError(error)) {
    const body: WorkspaceApiError = { code: error.code, message: error.message, ...(error.field ? { field: error.field } : {}) };
    return Response.json(body, { status: STATUS[error.code] ?? 400 });
  }
  try {
    const { logger } = await getServices();
    logger.error({ err: error }, "workspace api failed");
  } catch {
    // logging must not mask the answer
  }
  return Response.json({ code: "INTERNAL", message: "Something went wrong" } satisfies WorkspaceApiError, { status: 500 });
}

/** Page loaders: WORKSPACE_NOT_EXIST → toast with the server's message, then My Workspaces (spec 001 §8). */
export async function throwWorkspacePageError(error: unknown): Promise<never> {
  if (isDomainError(error) && error.code === "WORKSPACE_NOT_EXIST") {
    throw await redirectWithToast("/history/workspaces", { type: "error", message: error.message });
  }
  if (isDomainError(error)) throw new Response(error.message, { status: STATUS[error.code] ?? 400 });
  throw error;
}

export function toSummary(ws: WorkspaceReadModel): WorkspaceSummary {
  return {
    id: ws.id,
    name: ws.name,
    description: ws.description,
    type: ws.type,
    status: ws.status,
    failureReason: ws.failureReason,
    documentCount: ws.documentIds.length,
    requestedCount: ws.requestedDocumentIds.length,
    createdAt: ws.createdAt,
    lastUsedAt: ws.lastUsedAt,
  };
}

/** The launch workflow's run (`workspace-launch-<id>`): which step it is on, from the durable engine itself. */
export async function launchProgress(ws: WorkspaceReadModel): Promise<LaunchProgress> {
  const runtime = await getRuntime();
  const engine = runtime.get<WorkflowEngine>(TOKENS.WorkflowEngine);
  const run = await engine.describe(workspaceLaunchWorkflowId(ws.id)).catch(() => null);
  return {
    workspaceId: ws.id,
    status: ws.status,
    type: ws.type,
    name: ws.name,
    runStatus: run?.status ?? null,
    currentStep: run?.currentStep ?? null,
    lastError: run?.lastError ?? null,
    failureReason: ws.failureReason,
    attachResults: ws.lastAttachResults.map((r) => ({ documentId: r.documentId, status: r.status, reason: r.reason })),
  };
}
