import { Callout, Flex, Heading, Link as RadixLink, Text } from "@radix-ui/themes";
import { type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Link, useFetcher, useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { DELETE_FETCHER } from "#app/components/keysets/delete-key-dialog";
import { DefaultsTabs } from "#app/components/keysets/model-defaults";
import { SavedKeys } from "#app/components/keysets/saved-keys";
import type { KeysetActionResult } from "#app/components/keysets/types";
import type { BreadcrumbHandle } from "#app/components/shell/breadcrumbs";
import { validateCsrf } from "#app/utils/csrf.server";
import { reauthenticatedAt, reauthHeader } from "#app/utils/reauth.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";
import { isDomainError } from "#domain/shared/domain-error";
import chatSettingsStyles from "#app/styles/chat-settings.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: chatSettingsStyles }];
export const meta: MetaFunction = () => [{ title: "Chat Settings | DocuChat" }];
export const handle: BreadcrumbHandle = { breadcrumb: { section: "Settings", page: "Chat Settings" } };

/** Spec 001 §2 Chat settings: default keyset and model per scope, the saved keys, Add Keys Now. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  // An admin acting as someone never opens profile routes (spec 001 §2).
  if (user.impersonatorId) throw redirect("/");
  const { keysets, modelCatalog } = await getServices();
  const [saved, defaults, options] = await Promise.all([keysets.list(user.id), keysets.defaults(user.id), modelCatalog.availableFor(user.id)]);
  return {
    keysets: saved.map((k) => ({ id: k.id, name: k.name, provider: k.provider, subProvider: k.subProvider, endpoint: k.endpoint, model: k.model, models: k.models, lastUsed: k.lastUsed })),
    defaults,
    options,
  };
}

type ActionResult = KeysetActionResult;

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (user.impersonatorId) throw redirect("/");
  const form = await request.formData();
  await validateCsrf(form, request);
  const intent = String(form.get("intent") ?? "");
  const field = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : undefined;
  };
  const { keysets, identity } = await getServices();
  const ctx = getRequestContext(request, { actorId: user.id, impersonatorId: user.impersonatorId });
  const id = field("id") ?? "";
  try {
    switch (intent) {
      case "add": {
        const added = await keysets.add(user.id, { name: field("name"), apiKey: field("apiKey"), provider: field("provider"), subProvider: field("subProvider"), endpoint: field("endpoint"), model: field("model") }, ctx);
        return { ok: true, intent, keysetId: added.keysetId, message: `The provider accepted the key${added.models.length ? `: ${added.models.length} model${added.models.length === 1 ? "" : "s"} available` : ""}. Key saved.` } satisfies ActionResult;
      }
      case "edit": {
        const apiKey = field("apiKey");
        await keysets.edit(user.id, id, { name: field("name"), apiKey: apiKey ? apiKey : undefined, endpoint: field("endpoint"), model: field("model") }, ctx);
        return { ok: true, intent, message: "Key updated." } satisfies ActionResult;
      }
      case "delete":
        await keysets.delete(user.id, id, ctx);
        return { ok: true, intent, message: "Key deleted. Defaults that used it are back on the built-in DocuChat model." } satisfies ActionResult;
      case "default": {
        const [keysetId, ...model] = (field("choice") ?? "").split("::");
        await keysets.chooseDefault(user.id, { scope: field("scope"), keysetId, model: model.join("::") }, ctx);
        return { ok: true, intent, message: "Default saved." } satisfies ActionResult;
      }
      case "confirm-password": {
        const ok = await identity.verifyPassword(user.id, field("password") ?? "");
        if (!ok) return { ok: false, intent, error: "That password is not correct.", field: "password" } satisfies ActionResult;
        return Response.json({ ok: true, intent } satisfies ActionResult, { headers: { "Set-Cookie": await reauthHeader(user.id, new Date()), "Cache-Control": "no-store" } });
      }
      case "reveal": {
        const { apiKey } = await keysets.reveal(user.id, id, await reauthenticatedAt(request, user.id));
        return Response.json({ ok: true, intent, keysetId: id, apiKey } satisfies ActionResult, { headers: { "Cache-Control": "no-store" } });
      }
      default:
        return { ok: false, intent, error: "Unknown action." } satisfies ActionResult;
    }
  } catch (error) {
    if (isDomainError(error)) {
      return { ok: false, intent, error: error.message, field: error.field, needsPassword: error.code === "REAUTH_REQUIRED" } satisfies ActionResult;
    }
    throw error;
  }
}

export default function ChatSettings() {
  const data = useLoaderData<typeof loader>();
  const [status, setStatus] = useState<string | null>(null);
  // The deleted key's row (and its dialog) unmounts when the list reloads, so the page watches the delete.
  const deleter = useFetcher<ActionResult>({ key: DELETE_FETCHER });
  useEffect(() => {
    if (deleter.state === "idle" && deleter.data?.ok && deleter.data.intent === "delete") setStatus(deleter.data.message ?? "Key deleted.");
  }, [deleter.state, deleter.data]);
  return (
    <Flex direction="column" gap="5" className="dc-chat-settings" data-testid="chat-settings">
      <Flex justify="between" align="center" wrap="wrap" gap="3">
        <Heading as="h1" size="7">
          Chat Settings
        </Heading>
        <Text size="2">
          <RadixLink asChild>
            <Link to="/help/keys">How to get an API key</Link>
          </RadixLink>
        </Text>
      </Flex>
      <div role="status" aria-live="polite" data-testid="settings-status">
        {status ? (
          <Callout.Root color="green" size="1" highContrast>
            <Callout.Text>{status}</Callout.Text>
          </Callout.Root>
        ) : null}
      </div>
      <DefaultsTabs data={data} onSaved={setStatus} />
      <SavedKeys data={data} onChanged={setStatus} />
    </Flex>
  );
}
