import { AlertDialog, Badge, Button, Card, Flex, Heading, Table, Text, TextField } from "@radix-ui/themes";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useFetcher, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { copyText } from "#app/components/chat/clipboard";
import { CsrfInput } from "#app/components/csrf-input";
import { ConfirmActions } from "#app/components/confirm-actions";
import type { BreadcrumbHandle } from "#app/components/shell/breadcrumbs";
import { useToast } from "#app/components/toast";
import { useHydrated } from "#app/components/use-hydrated";
import { validateCsrf } from "#app/utils/csrf.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { requireWritableUser, requireUser } from "#app/utils/session.server";
import { TOKEN_NAME_MAX, TOKEN_PERMISSIONS } from "#domain/identity/access-token";
import { isDomainError } from "#domain/shared/domain-error";

export const meta: MetaFunction = () => [{ title: "API Tokens | DocuChat" }];
export const handle: BreadcrumbHandle = { breadcrumb: { section: "Settings", page: "API Tokens", sectionTo: "/profile/my-account" } };

const PERMISSION_TEXT: Record<(typeof TOKEN_PERMISSIONS)[number], string> = {
  read: "Read: list and read documents, workspaces, conversations; search",
  ask: "Ask: put questions to workspaces (counts against your plan)",
  upload: "Upload: add and delete documents, create workspaces",
};

/** Personal access tokens for programs (issue 31, decision 220): create (shown once), list with last use, revoke. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  // An admin acting as someone never opens profile routes, and could not mint a token there (decision 220).
  if (user.impersonatorId) throw redirect("/");
  const { accessTokens, workspaceQueries } = await getServices();
  const [tokens, { workspaces }] = await Promise.all([accessTokens.list(user.id), workspaceQueries.list(user.id, { limit: 100 })]);
  return { tokens, workspaces: workspaces.map((w) => ({ id: w.id, name: w.name, documents: w.documentIds.length, createdAt: w.createdAt })) };
}

type ActionResult = { ok: true; intent: "create"; token: string; name: string } | { ok: true; intent: "revoke" } | { ok: false; error: string; field?: string };

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireWritableUser(request);
  if (user.impersonatorId) throw redirect("/");
  const form = await request.formData();
  await validateCsrf(form, request);
  const { accessTokens } = await getServices();
  const ctx = getRequestContext(request, { actorId: user.id, impersonatorId: user.impersonatorId });
  try {
    if (form.get("intent") === "revoke") {
      await accessTokens.revoke(user.id, String(form.get("id") ?? ""), ctx);
      return { ok: true, intent: "revoke" } satisfies ActionResult;
    }
    const created = await accessTokens.create(
      user.id,
      {
        name: form.get("name"),
        expiresIn: form.get("expiresIn"),
        scope: form.get("scope"),
        workspaceIds: form.getAll("workspaceIds"),
        permissions: form.getAll("permissions"),
      },
      ctx,
    );
    // Never cached, never stored: this answer is the only place the token exists in clear.
    return Response.json({ ok: true, intent: "create", token: created.token, name: String(form.get("name") ?? "").trim() } satisfies ActionResult, {
      headers: { "Cache-Control": "no-store" },
    });
  } catch (error) {
    if (isDomainError(error)) return { ok: false, error: error.message, field: error.field } satisfies ActionResult;
    throw error;
  }
}

const day = (iso: string) => new Date(iso).toLocaleDateString("en-GB", { dateStyle: "medium", timeZone: "UTC" });
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }) + " UTC" : "Never");

export default function ApiTokensPage() {
  const { tokens, workspaces } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionResult | undefined;
  const navigation = useNavigation();
  const toast = useToast();
  const [scope, setScope] = useState<"all" | "chosen">("all");
  const createForm = useRef<HTMLFormElement>(null);
  // A created token empties the form: a second click must not make a duplicate (issue 44).
  useEffect(() => {
    if (result?.ok && result.intent === "create") {
      createForm.current?.reset();
      setScope("all");
    }
  }, [result]);
  const copy = async (token: string) => {
    if (await copyText(token)) toast.push({ type: "success", message: "Token copied. It will not be shown again." });
    else toast.push({ type: "error", message: "No text copied" });
  };
  const workspaceName = new Map(workspaces.map((w) => [w.id, w.name]));
  return (
    <Flex direction="column" gap="4" className="dc-api-tokens">
      {result?.ok && result.intent === "create" ? (
        <Card size="3" data-testid="new-token" className="dc-api-tokens__new">
          <Text as="p" size="2">
            <strong>{result.name}</strong> is ready. Copy it now: it is shown only once and cannot be recovered.
          </Text>
          <Flex gap="2" direction={{ initial: "column", sm: "row" }} mt="2">
            <TextField.Root aria-label="New token" value={result.token} readOnly style={{ flex: 1, fontFamily: "monospace" }} data-testid="new-token-value" onFocus={(e) => e.currentTarget.select()} />
            <Button type="button" onClick={() => copy(result.token)} data-testid="copy-token">
              Copy token
            </Button>
          </Flex>
        </Card>
      ) : null}
      <Card size="3">
        <Form method="post" replace ref={createForm}>
          <CsrfInput />
          <input type="hidden" name="intent" value="create" />
          <Flex direction="column" gap="3">
            <Heading as="h2" size="4">
              New personal access token
            </Heading>
            <Text as="p" size="2" color="gray">
              Programs use a token to reach your documents through the API, an OpenAI-compatible client or an MCP client.{" "}
              <Link to="/help/api-tokens">How tokens work</Link>
            </Text>
            <label>
              <Text size="2" weight="medium">
                Name
              </Text>
              <TextField.Root name="name" required maxLength={TOKEN_NAME_MAX} placeholder="Weekly report uploader" data-testid="token-name" />
            </label>
            <label>
              <Text size="2" weight="medium" as="div">
                Expires
              </Text>
              <select name="expiresIn" defaultValue="30" className="dc-native-input" data-testid="token-expiry">
                <option value="30">In 30 days</option>
                <option value="90">In 90 days</option>
                <option value="365">In 365 days</option>
                <option value="none">Never</option>
              </select>
            </label>
            <fieldset className="dc-fieldset dc-api-tokens__choices">
              <legend>
                <Text size="2" weight="medium">
                  Workspaces
                </Text>
              </legend>
              <label className="dc-api-tokens__choice">
                <input type="radio" name="scope" value="all" checked={scope === "all"} onChange={() => setScope("all")} /> All workspaces, now and later
              </label>
              <label className="dc-api-tokens__choice">
                <input type="radio" name="scope" value="chosen" checked={scope === "chosen"} onChange={() => setScope("chosen")} data-testid="scope-chosen" /> Only
                these:
              </label>
              <Flex direction="column" gap="1" pl="5">
                {workspaces.length === 0 ? <Text size="2" color="gray">You have no workspaces yet.</Text> : null}
                {workspaces.map((w) => (
                  <label key={w.id} className="dc-api-tokens__choice">
                    <input type="checkbox" name="workspaceIds" value={w.id} onChange={(e) => e.currentTarget.checked && setScope("chosen")} />
                    <span>
                      {w.name}
                      {/* Two workspaces may share a name: their size and age tell them apart. */}
                      <Text size="1" color="gray">
                        {" "}
                        · {w.documents === 1 ? "1 document" : `${w.documents} documents`} · created {day(w.createdAt)}
                      </Text>
                    </span>
                  </label>
                ))}
              </Flex>
            </fieldset>
            <fieldset className="dc-fieldset dc-api-tokens__choices">
              <legend>
                <Text size="2" weight="medium">
                  Permissions
                </Text>
              </legend>
              {TOKEN_PERMISSIONS.map((p) => (
                <label key={p} className="dc-api-tokens__choice">
                  <input type="checkbox" name="permissions" value={p} defaultChecked={p === "read"} data-testid={`permission-${p}`} /> {PERMISSION_TEXT[p]}
                </label>
              ))}
            </fieldset>
            {result && !result.ok ? (
              <Text color="red" size="2" role="alert">
                {result.error}
              </Text>
            ) : null}
            <Flex>
              <Button type="submit" disabled={navigation.state === "submitting"} data-testid="create-token">
                Create token
              </Button>
            </Flex>
          </Flex>
        </Form>
      </Card>
      <Card size="3">
        <Heading as="h2" size="4" mb="3">
          Your tokens
        </Heading>
        {tokens.length === 0 ? (
          <Text size="2" color="gray">
            No tokens yet.
          </Text>
        ) : (
          <Table.Root variant="surface" size="1" className="dc-api-tokens__table">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeaderCell>Name</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Reaches</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Expires</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Last used</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell />
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {tokens.map((t) => (
                <Table.Row key={t.id} data-testid="token-row">
                  <Table.RowHeaderCell>
                    {t.name} {t.revokedAt ? <Badge color="gray">Revoked</Badge> : t.expired ? <Badge color="orange">Expired</Badge> : null}
                  </Table.RowHeaderCell>
                  <Table.Cell>
                    {t.permissions.join(", ")} on {t.workspaceIds ? t.workspaceIds.map((id) => workspaceName.get(id) ?? "a deleted workspace").join(", ") : "all workspaces"}
                  </Table.Cell>
                  <Table.Cell>{t.expiresAt ? when(t.expiresAt) : "Never"}</Table.Cell>
                  <Table.Cell>{when(t.lastUsedAt)}</Table.Cell>
                  <Table.Cell>
                    <RevokeToken id={t.id} name={t.name} revoked={Boolean(t.revokedAt)} />
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        )}
      </Card>
    </Flex>
  );
}

/**
 * Revoke, after a confirmation naming the token, with a toast when done.
 * Without JavaScript the button posts at once. Mounted after the revoke too,
 * so the toast still shows once the row reads Revoked.
 */
function RevokeToken({ id, name, revoked }: { id: string; name: string; revoked: boolean }) {
  const hydrated = useHydrated();
  const fetcher = useFetcher<ActionResult>();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    setOpen(false);
    if (fetcher.data.ok) toast.push({ type: "success", message: `${name} revoked. Programs using it can no longer reach your documents.` });
    else toast.push({ type: "error", message: fetcher.data.error });
  }, [fetcher.state, fetcher.data, name, toast]);
  const form = (
    <fetcher.Form method="post">
      <CsrfInput />
      <input type="hidden" name="intent" value="revoke" />
      <input type="hidden" name="id" value={id} />
      <ConfirmActions hydrated={hydrated} gap="4">
        <Button type="submit" color="red" variant={hydrated ? "solid" : "soft"} size={hydrated ? "2" : "1"} loading={fetcher.state !== "idle"} data-testid="confirm-revoke">
          {hydrated ? "Revoke token" : "Revoke"}
        </Button>
      </ConfirmActions>
    </fetcher.Form>
  );
  if (revoked) return null;
  if (!hydrated) return form;
  return (
    <AlertDialog.Root open={open} onOpenChange={setOpen}>
      <AlertDialog.Trigger>
        <Button type="button" color="red" variant="soft" size="1" aria-label={`Revoke ${name}`} data-testid="revoke-token">
          Revoke
        </Button>
      </AlertDialog.Trigger>
      <AlertDialog.Content maxWidth="440px">
        <AlertDialog.Title>Revoke {name}?</AlertDialog.Title>
        <AlertDialog.Description size="2">Programs using this token stop reaching your documents at once. This cannot be undone.</AlertDialog.Description>
        {form}
      </AlertDialog.Content>
    </AlertDialog.Root>
  );
}
