import { Button, Flex, Heading, Progress, Spinner, Text } from "@radix-ui/themes";
import { useHydrated } from "#app/components/use-hydrated";
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useNavigate } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { CheckCircleIcon } from "#app/components/icons";
import type { BreadcrumbHandle } from "#app/components/shell/breadcrumbs";
import { useToast } from "#app/components/toast";
import { launchProgress, throwWorkspacePageError } from "#app/components/workspace/api.server";
import { attachFailureMessage, type LaunchProgress } from "#app/components/workspace/types";
import workspaceStyles from "#app/components/workspace/workspace.css";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";
import { redirectWithToast } from "#app/utils/toast.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: workspaceStyles }];
export const meta: MetaFunction = () => [{ title: "Launching Workspace | DocuChat" }];
export const handle: BreadcrumbHandle = { breadcrumb: { section: "Workspaces", page: "Launch", sectionTo: "/history/workspaces" } };

const POLL_MS = 700;
const MIN_STEP_MS = 600;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { workspaceQueries } = await getServices();
  let ws;
  try {
    ws = await workspaceQueries.get(user.id, params.id ?? "");
  } catch (error) {
    return throwWorkspacePageError(error);
  }
  if (ws.status === "FAILED") {
    throw await redirectWithToast("/history/workspaces", { type: "error", message: "Failed to launch workspace" });
  }
  return { progress: await launchProgress(ws) };
}

/** The launch steps shown for a workspace type (spec 000 §2). */
function stepsFor(type: LaunchProgress["type"]) {
  return type === "Resume Builder" ? ["Creating Workspace", "Creating Conversation", "Creating Resume"] : ["Creating Workspace", "Creating Conversation"];
}

/** Which shown step the workflow is on; steps.length once the workspace is ACTIVE. */
function realIndex(progress: LaunchProgress): number {
  const steps = stepsFor(progress.type);
  if (progress.status === "ACTIVE") return steps.length;
  switch (progress.currentStep) {
    case "workspace.createFirstConversation":
      return 1;
    case "workspace.createResume":
      return progress.type === "Resume Builder" ? 2 : 1;
    case "workspace.activate":
      return steps.length - 1;
    default:
      return 0;
  }
}

export default function LaunchPage() {
  const hydrated = useHydrated();
  const { progress: initial } = useLoaderData<typeof loader>();
  const navigate = useNavigate();
  const toast = useToast();
  const [progress, setProgress] = useState<LaunchProgress>(initial);
  const [shown, setShown] = useState(0);
  const finished = useRef(false);
  const steps = stepsFor(progress.type);
  const target = realIndex(progress);

  // Poll the durable run every ~700 ms until it ends.
  useEffect(() => {
    let stopped = false;
    let timer: number | undefined;
    const poll = async () => {
      try {
        const response = await fetch(`/api/workspaces/${encodeURIComponent(initial.workspaceId)}`, { headers: { Accept: "application/json" }, credentials: "same-origin" });
        if (response.status === 404) {
          const body = (await response.json().catch(() => ({}))) as { message?: string };
          if (!stopped) {
            toast.push({ type: "error", message: body.message || "Workspace does not exist" });
            navigate("/history/workspaces", { replace: true });
          }
          return;
        }
        if (response.ok) {
          const body = (await response.json()) as { progress: LaunchProgress };
          if (!stopped) setProgress(body.progress);
          if (body.progress.status !== "CREATING") return;
        }
      } catch {
        // a dropped poll is retried on the next tick
      }
      if (!stopped) timer = window.setTimeout(poll, POLL_MS);
    };
    if (initial.status === "CREATING") timer = window.setTimeout(poll, POLL_MS);
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [initial.workspaceId, initial.status, navigate, toast]);

  // Each step stays on screen at least ~600 ms, then follows the real run.
  useEffect(() => {
    if (shown >= target) return;
    const timer = window.setTimeout(() => setShown((s) => Math.min(target, s + 1)), MIN_STEP_MS);
    return () => window.clearTimeout(timer);
  }, [shown, target]);

  // Failure: toast (with each attach reason) and back to My Workspaces.
  useEffect(() => {
    if (finished.current || progress.status !== "FAILED") return;
    finished.current = true;
    toast.push({ type: "error", message: "Failed to launch workspace" });
    const failedAttach = progress.attachResults.filter((r) => r.status !== "ATTACH_SUCCESS");
    for (const r of failedAttach.slice(0, 3)) toast.push({ type: "error", message: attachFailureMessage(r.reason) });
    if (failedAttach.length === 0 && progress.failureReason && progress.failureReason !== "Failed to launch workspace") {
      toast.push({ type: "error", message: progress.failureReason });
    }
    navigate("/history/workspaces", { replace: true });
  }, [progress, navigate, toast]);

  // Success: every step shown, then into the workspace.
  useEffect(() => {
    if (finished.current || progress.status !== "ACTIVE" || shown < steps.length) return;
    finished.current = true;
    // Not cleared on re-render: once every step is shown, the move into the workspace must happen.
    window.setTimeout(() => navigate(`/workspace/${progress.workspaceId}`, { replace: true }), 350);
  }, [progress, shown, steps.length, navigate]);

  // The current step counts as a third done, so the bar moves as soon as the run starts.
  const percent = shown >= steps.length ? 100 : Math.round(((shown + 0.33) / steps.length) * 100);
  const current = shown < steps.length ? steps[shown] : "Opening your workspace";

  return (
    <div className="dc-ws-page dc-ws-launch" data-ws-hydrated={hydrated}>
      <section className="dc-ws-card dc-ws-launch__card" aria-labelledby="launch-heading" data-testid="launch-progress">
        <Heading as="h1" size="6" id="launch-heading" align="center">
          Launching “{progress.name}”
        </Heading>
        <Text as="p" size="2" color="gray" align="center">
          {progress.type} workspace · this takes a few seconds
        </Text>
        <Progress value={percent} size="2" aria-label="Launch progress" className="dc-ws-launch__bar" />
        <ol className="dc-ws-launch__steps">
          {steps.map((label, i) => {
            const state = i < shown ? "done" : i === shown ? "current" : "waiting";
            return (
              <li key={label} className={`dc-ws-launch__step is-${state}`} data-testid="launch-step" data-state={state}>
                <span className="dc-ws-launch__icon" aria-hidden="true">
                  {state === "done" ? <CheckCircleIcon size={20} /> : state === "current" ? <Spinner size="2" /> : <span className="dc-ws-launch__pending" />}
                </span>
                <Text size="3" weight={state === "current" ? "bold" : "regular"} color={state === "waiting" ? "gray" : undefined}>
                  {label}
                </Text>
                <span className="dc-visually-hidden">{state === "done" ? " (done)" : state === "current" ? " (in progress)" : " (waiting)"}</span>
              </li>
            );
          })}
        </ol>
        <Text as="p" size="2" color="gray" align="center" role="status" aria-live="polite" data-testid="launch-status">
          {progress.status === "FAILED" ? "Failed to launch workspace" : `${current}…`}
        </Text>
        <Flex justify="center">
          <Button asChild variant="ghost" color="gray" size="2">
            <Link to="/history/workspaces">Back to My Workspaces</Link>
          </Button>
        </Flex>
      </section>
    </div>
  );
}
