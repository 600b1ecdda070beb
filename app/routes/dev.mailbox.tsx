import { Badge, Box, Card, Code, Flex, Heading, Link as ThemeLink, Table, Text } from "@radix-ui/themes";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { MailIcon } from "#app/components/icons";
import { Logo } from "#app/components/logo";
import { requireLoopbackClient } from "#app/utils/dev-only.server";
import { getServices } from "#app/utils/services.server";

export const meta: MetaFunction = () => [{ title: "Dev mailbox | DocuChat" }, { name: "robots", content: "noindex" }];

/**
 * Development only: the mails the embedded mailer "sent". 404 when a real
 * mailer is configured (always so in production) and to any client not on
 * this machine: the codes here sign people in.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const services = await getServices();
  if (!services.devMailbox) throw new Response("Not Found", { status: 404 });
  requireLoopbackClient(request);
  const mails = await services.devMailbox.list(50);
  return {
    productName: services.config.productName,
    mails: mails.map((m) => ({ id: m.id, to: m.to, subject: m.subject, text: m.text, sentAt: new Date(m.sentAt).toISOString() })),
  };
}

const CODE_RE = /\b(\d{6})\b/;

function formatTime(iso: string) {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  // UTC, so the server render and the browser agree.
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} UTC`;
}

export default function DevMailbox() {
  const { mails, productName } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();

  // New codes show up without a manual reload.
  useEffect(() => {
    const id = window.setInterval(() => {
      if (document.visibilityState === "visible" && revalidator.state === "idle") revalidator.revalidate();
    }, 3000);
    return () => window.clearInterval(id);
  }, [revalidator]);

  return (
    <div className="dc-mailbox">
      <header className="dc-mailbox__header">
        <Link to="/login" aria-label={`${productName} login`}>
          <Logo productName={productName} />
        </Link>
        <Badge color="amber" variant="soft" size="2">
          Development only
        </Badge>
      </header>
      <main id="main" className="dc-mailbox__main">
        <Flex align="center" gap="3" mb="2">
          <MailIcon size={26} />
          <Heading as="h1" size="7">
            Dev mailbox
          </Heading>
        </Flex>
        <Text as="p" color="gray" mb="5">
          Mails the app would have sent, newest first. No mail server is configured, so verification codes land here. The
          list refreshes every few seconds. Back to{" "}
          <ThemeLink asChild>
            <Link to="/login">Login</Link>
          </ThemeLink>{" "}
          or{" "}
          <ThemeLink asChild>
            <Link to="/signup">Sign up</Link>
          </ThemeLink>
          .
        </Text>
        {mails.length === 0 ? (
          <Card size="3">
            <Text as="p" align="center" color="gray">
              No mail yet. Sign up and the verification code will appear here.
            </Text>
          </Card>
        ) : (
          <Box className="dc-mailbox__table">
            <Table.Root variant="surface" size="2" aria-label="Recent mails">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeaderCell>To</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>Subject</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>Sent</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>Message</Table.ColumnHeaderCell>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {mails.map((mail) => {
                  const code = CODE_RE.exec(mail.text)?.[1];
                  return (
                    <Table.Row key={mail.id} data-testid="mail-row" data-to={mail.to}>
                      <Table.Cell>
                        <Text size="2" weight="medium">
                          {mail.to}
                        </Text>
                      </Table.Cell>
                      <Table.Cell>{mail.subject}</Table.Cell>
                      <Table.Cell>
                        <time dateTime={mail.sentAt}>{formatTime(mail.sentAt)}</time>
                      </Table.Cell>
                      <Table.Cell>
                        {code ? (
                          <Code size="4" weight="bold" className="dc-mailbox__code" data-testid="mail-code">
                            {code}
                          </Code>
                        ) : null}
                        <pre className="dc-mailbox__text">{mail.text}</pre>
                      </Table.Cell>
                    </Table.Row>
                  );
                })}
              </Table.Body>
            </Table.Root>
          </Box>
        )}
      </main>
    </div>
  );
}
