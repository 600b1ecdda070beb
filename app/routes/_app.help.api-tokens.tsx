import { Card, Code, Flex, Heading, Text } from "@radix-ui/themes";
import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import type { BreadcrumbHandle } from "#app/components/shell/breadcrumbs";

export const meta: MetaFunction = () => [{ title: "Personal access tokens | DocuChat" }];
export const handle: BreadcrumbHandle = { breadcrumb: { section: "Help", page: "API tokens" } };

/** What a personal access token is and how a program uses one (issue 31, decision 220). */
export default function ApiTokensHelpPage() {
  return (
    <Flex direction="column" gap="4" style={{ maxWidth: 860 }}>
      <Heading as="h1" size="7">
        Personal access tokens
      </Heading>
      <Card size="3">
        <Flex direction="column" gap="3">
          <Heading as="h2" size="4">
            What a token is
          </Heading>
          <Text as="p">
            A token lets a program act for you: a script that uploads the week&apos;s reports, a team bot that asks a workspace, an editor that searches your
            documents. You create tokens in <Link to="/profile/api-tokens">Settings → API Tokens</Link>, and you choose for each:
          </Text>
          <ul>
            <li>
              <Text>
                <strong>Workspaces</strong>: all of them (now and later) or only the ones you pick. A token for chosen workspaces sees only those workspaces and
                their documents; anything else answers &quot;not found&quot;.
              </Text>
            </li>
            <li>
              <Text>
                <strong>Permissions</strong>: <em>read</em> (lists, documents, page text, history, search), <em>ask</em> (questions; each counts against your
                plan like a question in the app) and <em>upload</em> (add and delete documents, create workspaces; needs a token for all workspaces).
              </Text>
            </li>
            <li>
              <Text>
                <strong>Expiry</strong>: 30, 90 or 365 days, or never.
              </Text>
            </li>
          </ul>
          <Text as="p">
            The token is shown once, when you create it. We keep only a keyed hash, so nobody (us included) can show it to you again: copy it then, and revoke it
            and create another if it is lost. The list shows when each token was last used (to the quarter hour). Revoking takes effect on the next request.
          </Text>
          <Text as="p">
            Every token&apos;s life (created, used, revoked) is in your account&apos;s history. A token never outlives your account: while it is scheduled for
            deletion tokens can only read, and after the deletion they stop working. An admin acting as you cannot create tokens.
          </Text>
        </Flex>
      </Card>
      <Card size="3">
        <Flex direction="column" gap="3">
          <Heading as="h2" size="4">
            Using it
          </Heading>
          <Text as="p">
            Send it as a bearer token: <Code>Authorization: Bearer dcp_…</Code>. The REST API lives under <Code>/api/v1</Code>; its reference is at{" "}
            <a href="/api/docs">/api/docs</a> and its OpenAPI description at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.
          </Text>
          <Text as="p">
            Tools that speak OpenAI&apos;s chat API work unchanged: set the base URL to <Code>/api/v1</Code> of this site, the key to your token, and the model
            to a workspace (<Code>GET /api/v1/models</Code> lists them as <Code>workspace-…</Code>). Answers carry their sources in an extra{" "}
            <Code>citations</Code> field.
          </Text>
          <Text as="p">
            Assistants that speak the Model Context Protocol connect to <Code>/mcp</Code> (Streamable HTTP) with the same header. They get tools to list and
            search workspaces, ask a workspace and read a page; every citation links back to the page in the viewer.
          </Text>
          <Text as="p">
            Each token may make a limited number of requests a minute; past it the API answers 429 with <Code>Retry-After</Code>. Errors are JSON problem
            details with a <Code>code</Code>.
          </Text>
        </Flex>
      </Card>
    </Flex>
  );
}
