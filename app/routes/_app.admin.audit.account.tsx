import { Button, Callout, Card, Flex, Heading, Table, Text, TextField } from "@radix-ui/themes";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import type { BreadcrumbHandle } from "#app/components/shell/breadcrumbs";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";

export const meta: MetaFunction = () => [{ title: "Account audit | DocuChat" }];
export const handle: BreadcrumbHandle = { breadcrumb: { section: "Admin", page: "Account audit" } };

/**
 * Admins replay one account's history from the event store (not a read model):
 * time, event, actor, details without secrets. Anyone else gets 404.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (user.role !== "admin") throw new Response("Not Found", { status: 404 });
  const query = (new URL(request.url).searchParams.get("username") ?? "").trim().slice(0, 64);
  if (!query) return { query, history: null, notFound: false };
  const { accountAudit } = await getServices();
  const userId = await accountAudit.findAccount(query);
  if (!userId) return { query, history: null, notFound: true };
  return { query, history: await accountAudit.history(userId, query), notFound: false };
}

export default function AccountAuditPage() {
  const { query, history, notFound } = useLoaderData<typeof loader>();
  return (
    <div className="dc-audit">
      <Heading as="h1" size="6" mb="1">
        Account audit
      </Heading>
      <Text as="p" color="gray" size="2" mb="4">
        Replays one account&apos;s history from the event log, in order. Works for deleted accounts too: their personal
        data reads as erased.
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
          <Callout.Text>No account found for “{query}”.</Callout.Text>
        </Callout.Root>
      ) : null}
      {history ? (
        <Card mt="4">
          <Text as="p" size="2" mb="3">
            Account <code>{history.userId}</code>: {history.rows.length} events
          </Text>
          <div className="dc-table-scroll">
            <Table.Root size="1" data-testid="audit-table">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeaderCell>Time (UTC)</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>Event</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>Actor</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>Details</Table.ColumnHeaderCell>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {history.rows.map((row) => (
                  <Table.Row key={row.position}>
                    <Table.Cell>{row.at.replace("T", " ").replace("Z", "")}</Table.Cell>
                    <Table.RowHeaderCell>{row.type}</Table.RowHeaderCell>
                    <Table.Cell>{row.actor}</Table.Cell>
                    <Table.Cell>{row.details}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </div>
        </Card>
      ) : null}
    </div>
  );
}
