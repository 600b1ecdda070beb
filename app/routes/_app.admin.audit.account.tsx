import { Button, Callout, Card, Flex, Heading, Text, TextField } from "@radix-ui/themes";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import type { BreadcrumbHandle } from "#app/components/shell/breadcrumbs";
import { requireAdmin } from "#app/components/administration/admin.server";
import { AdminRecords, type RecordColumn } from "#app/components/administration/admin-records";
import type { AuditRow } from "#application/administration/audit-rows";
import { auditFor } from "#app/components/administration/audit.server";

export const meta: MetaFunction = () => [{ title: "Account audit | DocuChat" }];
export const handle: BreadcrumbHandle = { breadcrumb: { section: "Admin", page: "Account audit" } };

/**
 * Admins replay one account's history from the event store (not a read model):
 * time, event, actor, details without secrets. Anyone else gets 404.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const { query, kind, history } = await auditFor(params);
  const exportQuery = kind === "impersonation" ? `impersonation=${encodeURIComponent(query)}` : `username=${encodeURIComponent(query)}`;
  return { query: kind === "account" ? query : "", searched: query, history, exportQuery, notFound: Boolean(query) && !history };
}

const COLUMNS: RecordColumn<AuditRow>[] = [
  { header: "Time (UTC)", cell: (row) => row.at.replace("T", " ").replace("Z", "") },
  { header: "Event", names: true, cell: (row) => row.type },
  { header: "Actor", cell: (row) => <span className="dc-records__long">{row.actor}</span> },
  { header: "Details", cell: (row) => <span className="dc-records__long">{row.details}</span> },
];

export default function AccountAuditPage() {
  const { query, searched, history, exportQuery, notFound } = useLoaderData<typeof loader>();
  return (
    <div className="dc-audit">
      <Heading as="h1" size="6" mb="1">
        Account audit
      </Heading>
      <Text as="p" color="gray" size="2" mb="4">
        Replays one account&apos;s history (or one impersonation, from the Impersonation History) from the event log, in
        order. Works for deleted accounts too: their personal data reads as erased.
      </Text>
      <Form method="get" className="dc-audit__search" role="search">
        <Flex gap="2" align="end" wrap="wrap">
          <div className="dc-field">
            <Text as="label" htmlFor="audit-username" size="2" weight="medium">
              Username or user id
            </Text>
            <TextField.Root id="audit-username" name="username" defaultValue={query} size="3" placeholder="e.g. reader42" />
          </div>
          <Button type="submit" size="3">
            Show history
          </Button>
        </Flex>
      </Form>
      {notFound ? (
        <Callout.Root color="amber" mt="4">
          <Callout.Text>Nothing found for “{searched}”.</Callout.Text>
        </Callout.Root>
      ) : null}
      {history ? (
        <Card mt="4">
          <Flex justify="between" align="center" wrap="wrap" gap="2" mb="3">
            <Text as="p" size="2">
              {history.subject}: {history.rows.length} events
            </Text>
            <Flex gap="3">
              <a href={`/admin/audit/export?${exportQuery}&format=csv`} download data-testid="audit-csv">
                Export CSV
              </a>
              <a href={`/admin/audit/export?${exportQuery}&format=json`} download data-testid="audit-json">
                Export JSON
              </a>
            </Flex>
          </Flex>
          <AdminRecords records={history.rows} columns={COLUMNS} rowKey={(row) => String(row.position)} testId="audit-table" label={`${history.subject}: events`} variant="ghost" />
        </Card>
      ) : null}
    </div>
  );
}
