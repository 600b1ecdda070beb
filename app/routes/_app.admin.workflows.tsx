import { Badge, Button, Callout, Heading, Table, Text } from "@radix-ui/themes";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { requireAdmin } from "#app/components/administration/admin.server";
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
        <div className="dc-table-scroll">
          <Table.Root size="1" variant="surface" data-testid="workflow-runs">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeaderCell>Run</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Type</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>State</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Current step</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Next timer</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Attempts</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Last error</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Started</Table.ColumnHeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {runs.map((run) => (
                <Table.Row key={run.workflowId}>
                  <Table.RowHeaderCell>
                    <code className="dc-admin__run-id">{run.workflowId}</code>
                  </Table.RowHeaderCell>
                  <Table.Cell>{run.type}</Table.Cell>
                  <Table.Cell>
                    <Badge highContrast color={STATUS_COLOR[run.status]}>{run.status}</Badge>
                    {run.status === "failed" ? (
                      <Form method="post" className="dc-admin__force">
                        <CsrfInput />
                        <input type="hidden" name="workflowId" value={run.workflowId} />
                        <Button type="submit" size="1" variant="soft">
                          Retry
                        </Button>
                      </Form>
                    ) : null}
                  </Table.Cell>
                  <Table.Cell>{run.currentStep ?? "—"}</Table.Cell>
                  <Table.Cell>{utcTime(run.nextWakeAt)}</Table.Cell>
                  <Table.Cell>{run.attempts ?? "—"}</Table.Cell>
                  <Table.Cell>{run.lastError ?? "—"}</Table.Cell>
                  <Table.Cell>{utcTime(run.startedAt)}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </div>
      )}
    </div>
  );
}
