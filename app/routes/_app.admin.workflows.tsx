import { Badge, Button, Callout, Heading, Text } from "@radix-ui/themes";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { requireAdmin } from "#app/components/administration/admin.server";
import { AdminRecords, CopyableId, type RecordColumn } from "#app/components/administration/admin-records";
import { utcTime } from "#app/components/administration/impersonation-history";
import { CsrfInput } from "#app/components/csrf-input";
import type { BreadcrumbHandle } from "#app/components/shell/breadcrumbs";
import { validateCsrf } from "#app/utils/csrf.server";
import { getServices } from "#app/utils/services.server";
import { redirectWithToast } from "#app/utils/toast.server";
import { isDomainError } from "#domain/shared/domain-error";

export const meta: MetaFunction = () => [{ title: "Workflow runs | DocuChat" }];
export const handle: BreadcrumbHandle = { breadcrumb: { section: "Impersonation", sectionTo: "/adminDashboard", page: "Workflow runs" } };

/**
 * Operators (ARCHITECTURE §5, decision 106): the embedded runner's workflow
 * runs with a retry for failed ones. On the production stack Temporal's own
 * UI is the place, and the page says so. Admins only; others 404.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const { workflowRuns, config } = await getServices();
  if (config.workflowsAdapter === "temporal") return { temporal: true as const, runs: [] };
  const runs = await workflowRuns.list();
  return { temporal: false as const, runs: runs.map(({ result: _result, ...run }) => run) };
}

export async function action({ request }: ActionFunctionArgs) {
  const formData = await request.formData();
  await validateCsrf(formData, request);
  await requireAdmin(request, { forAction: true });
  const { workflowRuns } = await getServices();
  try {
    await workflowRuns.retry(String(formData.get("workflowId") ?? ""));
    return redirectWithToast("/admin/workflows", { type: "success", message: "The run is retrying its failed step." });
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return redirectWithToast("/admin/workflows", { type: "error", message: error.message });
  }
}

const STATUS_COLOR = { running: "blue", completed: "green", failed: "red", cancelled: "gray" } as const;

type Run = ReturnType<typeof useLoaderData<typeof loader>>["runs"][number];

const COLUMNS: RecordColumn<Run>[] = [
  { header: "Run", names: true, cell: (run) => <CopyableId id={run.workflowId} what="Run id" /> },
  { header: "Type", cell: (run) => run.type },
  {
    header: "State",
    cell: (run) => (
      <>
        <Badge highContrast color={STATUS_COLOR[run.status]}>
          {run.status}
        </Badge>
        {run.status === "failed" ? (
          <Form method="post" className="dc-admin__force">
            <CsrfInput />
            <input type="hidden" name="workflowId" value={run.workflowId} />
            <Button type="submit" size="1" variant="soft">
              Retry
            </Button>
          </Form>
        ) : null}
      </>
    ),
  },
  { header: "Current step", cell: (run) => run.currentStep ?? "—" },
  { header: "Next timer", cell: (run) => utcTime(run.nextWakeAt) },
  { header: "Attempts", cell: (run) => run.attempts ?? "—" },
  { header: "Last error", cell: (run) => run.lastError ?? "—" },
  { header: "Started", cell: (run) => utcTime(run.startedAt) },
];

export default function WorkflowRunsPage() {
  const { temporal, runs } = useLoaderData<typeof loader>();
  return (
    <div className="dc-admin">
      <Heading as="h1" size="6" mb="3">
        Workflow runs
      </Heading>
      {temporal ? (
        <Callout.Root color="blue">
          <Callout.Text>Workflows run on Temporal here: watch and retry them in Temporal&apos;s own UI (see the README, production stack).</Callout.Text>
        </Callout.Root>
      ) : runs.length === 0 ? (
        <Text color="gray">No workflow has run yet.</Text>
      ) : (
        <AdminRecords records={runs} columns={COLUMNS} rowKey={(run) => run.workflowId} testId="workflow-runs" label="Workflow runs" />
      )}
    </div>
  );
}
