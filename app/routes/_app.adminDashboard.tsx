import { Badge, Button, Callout, Card, Flex, Heading, Link as RadixLink, Table, Text, TextField } from "@radix-ui/themes";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { requireAdmin } from "#app/components/administration/admin.server";
import { ImpersonationHistoryTable, utcTime } from "#app/components/administration/impersonation-history";
import { RoleChange } from "#app/components/administration/role-change";
import { CsrfInput } from "#app/components/csrf-input";
import type { BreadcrumbHandle } from "#app/components/shell/breadcrumbs";
import { validateCsrf } from "#app/utils/csrf.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { redirectWithToast } from "#app/utils/toast.server";
import { USER_SEARCH_MIN_LENGTH } from "#application/administration/administration-queries";
import { REASON_MIN_LENGTH } from "#domain/administration/impersonation";
import { isDomainError } from "#domain/shared/domain-error";

export const meta: MetaFunction = () => [{ title: "Impersonation | DocuChat" }];
export const handle: BreadcrumbHandle = { breadcrumb: { section: "Impersonation" } };

/** The impersonation screen (spec 001 §2): admins only, others see the not-found page. */
export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  const { administration, impersonations } = await getServices();
  const q = (new URL(request.url).searchParams.get("q") ?? "").trim().slice(0, 100);
  const filter = { logic: "OR", filters: (["email", "auth_id", "name"] as const).map((field) => ({ field, type: "contains", value: q })) };
  const users = q.length >= USER_SEARCH_MIN_LENGTH ? await administration.searchUsers(filter) : [];
  // The admin's own impersonation still running (a browser closed without Exit Admin Mode), to be ended here.
  const running = (await impersonations.runningOf(admin.id)).map(({ id, userName, startedAt, deadline }) => ({ id, userName: userName ?? "(erased)", startedAt, deadline }));
  return { adminId: admin.id, q, users, running: running[0] ?? null, history: await administration.history() };
}

/** Granting and revoking the admin role, and ending another admin's impersonation (forced). */
export async function action({ request }: ActionFunctionArgs) {
  const formData = await request.formData();
  await validateCsrf(formData, request);
  const admin = await requireAdmin(request, { forAction: true });
  const { adminRoles, impersonations } = await getServices();
  const ctx = getRequestContext(request, { actorId: admin.id });
  const target = String(formData.get("target") ?? "");
  const back = `/adminDashboard?${new URLSearchParams({ q: String(formData.get("q") ?? "") })}`;
  try {
    switch (formData.get("intent")) {
      case "grant":
        await adminRoles.grant(admin.id, target, ctx);
        return redirectWithToast(back, { type: "success", message: "Admin role granted." });
      case "revoke":
        await adminRoles.revoke(admin.id, target, ctx);
        return redirectWithToast(back, { type: "success", message: "Admin role revoked." });
      case "end-own":
        await impersonations.endOwn(admin.id, target, ctx);
        return redirectWithToast(back, { type: "success", message: "Impersonation ended." });
      case "force-end":
        await impersonations.forceEnd(admin.id, target, ctx);
        return redirectWithToast(back, { type: "success", message: "Impersonation ended." });
      default:
        return redirectWithToast(back, { type: "error", message: "Unknown request." });
    }
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return redirectWithToast(back, { type: "error", message: error.message });
  }
}

export default function AdminDashboardPage() {
  const { adminId, q, users, running, history } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  return (
    <div className="dc-admin">
      <Flex justify="between" align="center" wrap="wrap" gap="3" mb="4">
        <Heading as="h1" size="6">
          Impersonation
        </Heading>
        <Flex gap="4">
          <RadixLink asChild size="2">
            <Link to="/admin/audit/account">Audit</Link>
          </RadixLink>
          <RadixLink asChild size="2">
            <Link to="/admin/workflows">Workflow runs</Link>
          </RadixLink>
        </Flex>
      </Flex>

      {running ? <RunningImpersonation running={running} q={q} busy={busy} /> : null}

      <Card size="2" mb="5">
        <Form method="get" role="search">
          <Flex gap="2" align="end" wrap="wrap">
            <div className="dc-field dc-admin__search">
              <Text as="label" htmlFor="admin-search" size="2" weight="medium">
                Search Users
              </Text>
              <TextField.Root id="admin-search" name="q" defaultValue={q} size="3" minLength={USER_SEARCH_MIN_LENGTH} maxLength={100} placeholder="Email, username or name" />
            </div>
            <Button type="submit" size="3">
              Search
            </Button>
          </Flex>
          <Text as="p" size="1" color="gray" mt="1">
            Type at least {USER_SEARCH_MIN_LENGTH} characters.
          </Text>
        </Form>
        {q.length >= USER_SEARCH_MIN_LENGTH && users.length === 0 ? (
          <Callout.Root color="gray" mt="3">
            <Callout.Text>No users match “{q}”.</Callout.Text>
          </Callout.Root>
        ) : null}
        {users.length > 0 ? (
          <ul className="dc-admin__results" aria-label="Users found">
            {users.map((user) => (
              <li key={user.id} className="dc-admin__user" data-testid="admin-user">
                <div className="dc-admin__who">
                  <Text as="div" weight="medium">
                    {user.name || user.auth_id}
                  </Text>
                  <Text as="div" size="1" color="gray">
                    {user.auth_id} · {user.email_id}
                  </Text>
                  <Flex gap="1" mt="1">
                    {user.isAdmin ? <Badge highContrast color="indigo">Admin</Badge> : null}
                    {user.status === "PENDING_DELETE" ? <Badge highContrast color="red">Pending deletion</Badge> : null}
                  </Flex>
                </div>
                {!user.isAdmin && user.status === "ACTIVE" ? (
                  <Form method="post" action="/profiles/impersonate" className="dc-admin__impersonate">
                    <CsrfInput />
                    <input type="hidden" name="type" value="impersonate" />
                    <input type="hidden" name="user_id" value={user.id} />
                    <input type="hidden" name="q" value={q} />
                    {running ? <input type="hidden" name="end_running" value={running.id} /> : null}
                    <TextField.Root
                      name="reason"
                      aria-label={`Reason for impersonating ${user.auth_id}`}
                      placeholder="Reason (required)"
                      required
                      minLength={REASON_MIN_LENGTH}
                      maxLength={500}
                    />
                    <Button type="submit" disabled={busy} data-testid="impersonate">
                      {running ? `End ${running.userName}'s and impersonate` : "Impersonate"}
                    </Button>
                  </Form>
                ) : null}
                {user.id !== adminId ? (
                  <RoleChange user={{ id: user.id, name: user.name ? `${user.name} (${user.auth_id})` : user.auth_id, isAdmin: user.isAdmin }} q={q} busy={busy} />
                ) : null}
              </li>
            ))}
          </ul>
        ) : null}
      </Card>

      <Heading as="h2" size="4" mb="2">
        Impersonation History
      </Heading>
      <ImpersonationHistoryTable rows={history} adminId={adminId} q={q} />
    </div>
  );
}

/** The admin's own running impersonation (left open, say, by a closed browser), with End; starting another ends it first. */
function RunningImpersonation({ running, q, busy }: { running: { id: string; userName: string; startedAt: string; deadline: string }; q: string; busy: boolean }) {
  return (
    <Callout.Root color="amber" mb="5" data-testid="running-impersonation">
      <Flex justify="between" align="center" wrap="wrap" gap="3">
        <Callout.Text>
          You are impersonating <strong>{running.userName}</strong> since {utcTime(running.startedAt)}; it ends by itself at {utcTime(running.deadline)}. Starting
          another ends this one first.
        </Callout.Text>
        <Form method="post">
          <CsrfInput />
          <input type="hidden" name="intent" value="end-own" />
          <input type="hidden" name="target" value={running.id} />
          <input type="hidden" name="q" value={q} />
          <Button type="submit" color="red" variant="soft" disabled={busy}>
            End
          </Button>
        </Form>
      </Flex>
    </Callout.Root>
  );
}
