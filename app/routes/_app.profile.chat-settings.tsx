import { AlertDialog, Button, Callout, Card, Dialog, Flex, Heading, Link as RadixLink, Table, Tabs, Text, TextField } from "@radix-ui/themes";
import { type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Link, useFetcher, useLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { CsrfInput } from "#app/components/csrf-input";
import { BUILT_IN_EMBEDDING_LABEL } from "#app/components/workspace/chat-preferences";
import type { BreadcrumbHandle } from "#app/components/shell/breadcrumbs";
import { validateCsrf } from "#app/utils/csrf.server";
import { reauthenticatedAt, reauthHeader } from "#app/utils/reauth.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";
import { addKeysetSchema, MODEL_SCOPES, type ModelScope, PROVIDERS, type Provider } from "#domain/identity/keyset";
import { isDomainError } from "#domain/shared/domain-error";
import chatSettingsStyles from "#app/styles/chat-settings.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: chatSettingsStyles }];
export const meta: MetaFunction = () => [{ title: "Chat Settings | DocuChat" }];
export const handle: BreadcrumbHandle = { breadcrumb: { section: "Settings", page: "Chat Settings" } };

const SCOPE_LABELS: Record<ModelScope, string> = { text: "Text", image: "Image", embedding: "Embedding Preferences" };
const PROVIDER_LIST = Object.entries(PROVIDERS).map(([name, rules]) => ({ name: name as Provider, ...rules, subProviders: [...rules.subProviders] }));

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

type ActionResult = { ok: true; intent: string; message?: string; apiKey?: string; keysetId?: string } | { ok: false; intent: string; error: string; field?: string; needsPassword?: boolean };

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

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;
type SavedKey = LoaderData["keysets"][number];

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

function DefaultsTabs({ data, onSaved }: { data: LoaderData; onSaved: (message: string) => void }) {
  return (
    <Card size="3">
      <Tabs.Root defaultValue="text">
        <Tabs.List aria-label="Model preferences">
          {MODEL_SCOPES.map((scope) => (
            <Tabs.Trigger key={scope} value={scope} data-testid={`tab-${scope}`}>
              {SCOPE_LABELS[scope]}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {MODEL_SCOPES.map((scope) => (
          <Tabs.Content key={scope} value={scope}>
            <DefaultForm scope={scope} data={data} onSaved={onSaved} />
          </Tabs.Content>
        ))}
      </Tabs.Root>
    </Card>
  );
}

function DefaultForm({ scope, data, onSaved }: { scope: ModelScope; data: LoaderData; onSaved: (message: string) => void }) {
  const fetcher = useFetcher<ActionResult>();
  const current = data.defaults[scope];
  const currentValue = `${current.keysetId}::${current.model}`;
  const [value, setValue] = useState(currentValue);
  useEffect(() => setValue(currentValue), [currentValue]);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok && fetcher.data.intent === "default") onSaved(`${SCOPE_LABELS[scope]} default saved.`);
  }, [fetcher.state, fetcher.data, onSaved, scope]);
  const selectId = `default-${scope}`;
  const builtInLabel = "DocuChat (built-in) — extractive: quotes your documents, no AI provider";
  return (
    <fetcher.Form method="post" className="dc-default-form">
      <CsrfInput />
      <input type="hidden" name="intent" value="default" />
      <input type="hidden" name="scope" value={scope} />
      <Flex direction="column" gap="2" mt="4">
        <label htmlFor={selectId}>
          <Text weight="medium">Default keyset and model</Text>
        </label>
        <select id={selectId} name="choice" value={value} onChange={(e) => setValue(e.target.value)} className="dc-select" data-testid={`default-select-${scope}`}>
          {data.options.map((option) => {
            // Embeddings: a keyset offers only its embedding models; the built-in keyset its offline model (when the server runs it)
            // and "keyword search only", stored as its text model.
            const builtIn = option.keysetId === "docuchat";
            if (builtIn && scope === "embedding") {
              return (
                <optgroup key={option.keysetId} label={option.keysetName}>
                  {option.embeddingModels.map((model) => (
                    <option key={model.id} value={`${option.keysetId}::${model.id}`}>
                      {BUILT_IN_EMBEDDING_LABEL}
                    </option>
                  ))}
                  {option.models.map((model) => (
                    <option key={model.id} value={`${option.keysetId}::${model.id}`}>
                      Keyword search only (built-in): no embedding model
                    </option>
                  ))}
                </optgroup>
              );
            }
            const models = scope === "embedding" ? option.embeddingModels : option.models;
            if (models.length === 0) return null;
            return (
              <optgroup key={option.keysetId} label={option.keysetName}>
                {models.map((model) => (
                  <option key={model.id} value={`${option.keysetId}::${model.id}`}>
                    {builtIn ? builtInLabel : `${option.keysetName} — ${model.label}`}
                  </option>
                ))}
              </optgroup>
            );
          })}
        </select>
        <Text size="1" color="gray">
          Used for new workspaces; each workspace can choose its own in Workspace Settings.
        </Text>
        {fetcher.data && !fetcher.data.ok && fetcher.data.intent === "default" ? (
          <Text color="red" size="2" role="alert">
            {fetcher.data.error}
          </Text>
        ) : null}
        <Flex gap="3" justify="end">
          <Button type="button" variant="soft" color="gray" onClick={() => setValue(currentValue)} disabled={value === currentValue}>
            Cancel
          </Button>
          <Button type="submit" disabled={value === currentValue || fetcher.state !== "idle"} data-testid={`save-default-${scope}`}>
            Save
          </Button>
        </Flex>
      </Flex>
    </fetcher.Form>
  );
}

function SavedKeys({ data, onChanged }: { data: LoaderData; onChanged: (message: string) => void }) {
  const [revealing, setRevealing] = useState<string | null>(null);
  return (
    <Card size="3">
      <Flex justify="between" align="center" mb="3" wrap="wrap" gap="3">
        <Heading as="h2" size="5">
          Saved API keys
        </Heading>
        <AddKeyDialog onAdded={onChanged} />
      </Flex>
      {data.keysets.length === 0 ? (
        <Text as="p" color="gray" data-testid="no-keys">
          No keys saved yet. The built-in DocuChat model is used until you add one.
        </Text>
      ) : (
        <Table.Root variant="surface" data-testid="keys-table">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>Key name</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Provider</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Sub-provider</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Last used</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>API key</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>
                <span className="dc-visually-hidden">Actions</span>
              </Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {data.keysets.map((key) => (
              <Table.Row key={key.id} data-testid="key-row" data-key-name={key.name}>
                <Table.RowHeaderCell>{key.name}</Table.RowHeaderCell>
                <Table.Cell>{key.provider}</Table.Cell>
                <Table.Cell>{key.subProvider}</Table.Cell>
                <Table.Cell>{key.lastUsed ? formatDate(key.lastUsed) : "Never"}</Table.Cell>
                <Table.Cell>
                  <RevealKey keyset={key} active={revealing === key.id} onActivate={setRevealing} />
                </Table.Cell>
                <Table.Cell>
                  <Flex gap="2" justify="end">
                    <EditKeyDialog keyset={key} onSaved={onChanged} />
                    <DeleteKeyDialog keyset={key} />
                  </Flex>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
    </Card>
  );
}

const formatDate = (iso: string) => {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(d.getDate())}-${pad(d.getMonth() + 1)}-${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

/** Reveal: a 1-second placeholder first (spec 001 §9), a password confirmation when the last one is older than 5 minutes. */
function RevealKey({ keyset, active, onActivate }: { keyset: SavedKey; active: boolean; onActivate: (id: string | null) => void }) {
  const reveal = useFetcher<ActionResult>();
  const confirm = useFetcher<ActionResult>();
  const [phase, setPhase] = useState<"hidden" | "placeholder" | "password" | "shown">("hidden");
  const [waited, setWaited] = useState(false);
  const [password, setPassword] = useState("");
  const submitReveal = () => reveal.submit({ intent: "reveal", id: keyset.id, csrf: csrfToken() }, { method: "post" });
  const start = () => {
    onActivate(keyset.id);
    setPhase("placeholder");
    setWaited(false);
    setTimeout(() => setWaited(true), 1000);
    submitReveal();
  };
  useEffect(() => {
    if (phase !== "placeholder" || !waited || reveal.state !== "idle" || !reveal.data) return;
    if (reveal.data.ok && reveal.data.apiKey !== undefined) setPhase("shown");
    else if (!reveal.data.ok && reveal.data.needsPassword) setPhase("password");
    else setPhase("hidden");
  }, [phase, waited, reveal.state, reveal.data]);
  useEffect(() => {
    if (confirm.state === "idle" && confirm.data?.ok && phase === "password") {
      setPassword("");
      setPhase("placeholder");
      submitReveal();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [confirm.state, confirm.data]);
  useEffect(() => {
    if (!active && phase === "shown") setPhase("hidden");
  }, [active, phase]);
  const shown = phase === "shown" && reveal.data?.ok ? reveal.data.apiKey : null;
  return (
    <Flex gap="2" align="center">
      <code className="dc-key" data-testid="key-value" aria-live="polite">
        {phase === "placeholder" ? "Revealing…" : shown !== null && shown !== undefined ? shown || "(no key)" : "••••••••••"}
      </code>
      {phase === "shown" ? (
        <Button size="1" variant="soft" type="button" onClick={() => setPhase("hidden")}>
          Hide<span className="dc-visually-hidden"> key {keyset.name}</span>
        </Button>
      ) : (
        <Button size="1" variant="soft" type="button" onClick={start} disabled={phase === "placeholder"} data-testid="reveal-key">
          Reveal<span className="dc-visually-hidden"> key {keyset.name}</span>
        </Button>
      )}
      <Dialog.Root open={phase === "password"} onOpenChange={(open) => !open && setPhase("hidden")}>
        <Dialog.Content maxWidth="420px" data-testid="confirm-password-dialog">
          <Dialog.Title>Confirm your password</Dialog.Title>
          <Dialog.Description size="2">To show a saved API key, enter your password again.</Dialog.Description>
          <confirm.Form method="post">
            <CsrfInput />
            <input type="hidden" name="intent" value="confirm-password" />
            <Flex direction="column" gap="2" mt="3">
              <label htmlFor={`password-${keyset.id}`}>
                <Text weight="medium">Password</Text>
              </label>
              <TextField.Root id={`password-${keyset.id}`} name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
              {confirm.data && !confirm.data.ok ? (
                <Text color="red" size="2" role="alert">
                  {confirm.data.error}
                </Text>
              ) : null}
            </Flex>
            <Flex gap="3" mt="4" justify="end">
              <Dialog.Close>
                <Button variant="soft" color="gray" type="button">
                  Cancel
                </Button>
              </Dialog.Close>
              <Button type="submit" disabled={!password || confirm.state !== "idle"} data-testid="confirm-password">
                Confirm
              </Button>
            </Flex>
          </confirm.Form>
        </Dialog.Content>
      </Dialog.Root>
    </Flex>
  );
}

function csrfToken(): string {
  if (typeof document === "undefined") return "";
  return (document.querySelector('input[name="csrf"]') as HTMLInputElement | null)?.value ?? "";
}

function AddKeyDialog({ onAdded }: { onAdded: (message: string) => void }) {
  const fetcher = useFetcher<ActionResult>();
  const [open, setOpen] = useState(false);
  const empty = { name: "", apiKey: "", provider: "", subProvider: "", endpoint: "", model: "" };
  const [form, setForm] = useState(empty);
  const provider = PROVIDER_LIST.find((p) => p.name === form.provider);
  const keyNeeded = provider ? !provider.keyOptional : true;
  const canSave = form.name.trim() !== "" && (!keyNeeded || form.apiKey.trim() !== "") && form.provider !== "" && form.subProvider !== "";
  const parsed = addKeysetSchema.safeParse(form);
  const localError = canSave && !parsed.success ? parsed.error.issues[0]?.message : null;
  const submitted = useRef(false);
  useEffect(() => {
    if (fetcher.state !== "idle" || !submitted.current || !fetcher.data) return;
    submitted.current = false;
    if (fetcher.data.ok) {
      onAdded(fetcher.data.message ?? "Key saved.");
      setForm(empty);
      setOpen(false);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.state, fetcher.data]);
  const set = (name: keyof typeof empty) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [name]: e.target.value }));
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger>
        <Button data-testid="add-keys-now">Add Keys Now</Button>
      </Dialog.Trigger>
      <Dialog.Content maxWidth="520px" data-testid="add-key-dialog">
        <Dialog.Title>Add a key</Dialog.Title>
        <Dialog.Description size="2">
          The key is checked with the provider, then stored encrypted. <Link to="/help/keys">Where do I find my key?</Link>
        </Dialog.Description>
        <fetcher.Form
          method="post"
          onSubmit={() => {
            submitted.current = true;
          }}
        >
          <CsrfInput />
          <input type="hidden" name="intent" value="add" />
          <Flex direction="column" gap="3" mt="3">
            <Field label="Key name" id="add-name">
              <TextField.Root id="add-name" name="name" value={form.name} onChange={set("name")} maxLength={60} required />
            </Field>
            <Field label="Provider" id="add-provider">
              <select
                id="add-provider"
                name="provider"
                className="dc-select"
                value={form.provider}
                onChange={(e) => {
                  const next = PROVIDER_LIST.find((p) => p.name === e.target.value);
                  setForm((f) => ({ ...f, provider: e.target.value, subProvider: next && next.subProviders.length === 1 ? next.subProviders[0] : "" }));
                }}
              >
                <option value="">Choose a provider</option>
                <option value="DocuChat" disabled>
                  DocuChat (built-in, always available)
                </option>
                {PROVIDER_LIST.map((p) => (
                  <option key={p.name} value={p.name}>
                    {p.name === "OpenAI-compatible" ? "OpenAI-compatible endpoint (Ollama, vLLM, LM Studio, llama.cpp)" : p.name}
                  </option>
                ))}
              </select>
            </Field>
            <Field label="Sub-provider" id="add-sub-provider">
              <select id="add-sub-provider" name="subProvider" className="dc-select" value={form.subProvider} onChange={set("subProvider")} disabled={!provider}>
                <option value="">Choose a sub-provider</option>
                {provider?.subProviders.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </select>
            </Field>
            {provider?.needsEndpoint ? (
              <Field label={form.provider === "OpenAI-compatible" ? "Base URL (e.g. http://ollama.lan:11434/v1)" : "Endpoint"} id="add-endpoint">
                <TextField.Root id="add-endpoint" name="endpoint" type="url" value={form.endpoint} onChange={set("endpoint")} required />
              </Field>
            ) : null}
            {provider && (provider.needsModel || provider.name === "OpenAI-compatible") ? (
              <Field label={provider.needsModel ? "Model (deployment name)" : "Model (optional: chosen from the server's list otherwise)"} id="add-model">
                <TextField.Root id="add-model" name="model" value={form.model} onChange={set("model")} required={provider.needsModel} />
              </Field>
            ) : null}
            <Field label={keyNeeded ? "API key" : "API key (optional)"} id="add-api-key">
              <TextField.Root id="add-api-key" name="apiKey" type="password" autoComplete="off" value={form.apiKey} onChange={set("apiKey")} required={keyNeeded} />
            </Field>
            <div role="status" aria-live="polite">
              {fetcher.state !== "idle" ? <Text size="2">Checking the key with the provider…</Text> : null}
              {localError ? (
                <Text size="2" color="red">
                  {localError}
                </Text>
              ) : null}
              {fetcher.state === "idle" && fetcher.data && !fetcher.data.ok && fetcher.data.intent === "add" ? (
                <Text size="2" color="red" data-testid="add-key-error">
                  {fetcher.data.error}
                </Text>
              ) : null}
            </div>
          </Flex>
          <Flex gap="3" mt="4" justify="end">
            <Dialog.Close>
              <Button variant="soft" color="gray" type="button">
                Cancel
              </Button>
            </Dialog.Close>
            <Button type="submit" disabled={!canSave || Boolean(localError) || fetcher.state !== "idle"} data-testid="save-key">
              Save
            </Button>
          </Flex>
        </fetcher.Form>
      </Dialog.Content>
    </Dialog.Root>
  );
}

function EditKeyDialog({ keyset, onSaved }: { keyset: SavedKey; onSaved: (message: string) => void }) {
  const fetcher = useFetcher<ActionResult>();
  const [open, setOpen] = useState(false);
  const rules = PROVIDERS[keyset.provider as Provider];
  const submitted = useRef(false);
  useEffect(() => {
    if (fetcher.state !== "idle" || !submitted.current || !fetcher.data) return;
    submitted.current = false;
    if (fetcher.data.ok) {
      onSaved(fetcher.data.message ?? "Key updated.");
      setOpen(false);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.state, fetcher.data]);
  const ids = (name: string) => `edit-${name}-${keyset.id}`;
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger>
        <Button size="1" variant="soft" data-testid="edit-key">
          Edit<span className="dc-visually-hidden"> key {keyset.name}</span>
        </Button>
      </Dialog.Trigger>
      <Dialog.Content maxWidth="520px">
        <Dialog.Title>Edit {keyset.name}</Dialog.Title>
        <Dialog.Description size="2">
          {keyset.provider} · {keyset.subProvider}. Leave the API key empty to keep the saved one.
        </Dialog.Description>
        <fetcher.Form method="post" onSubmit={() => (submitted.current = true)}>
          <CsrfInput />
          <input type="hidden" name="intent" value="edit" />
          <input type="hidden" name="id" value={keyset.id} />
          <Flex direction="column" gap="3" mt="3">
            <Field label="Key name" id={ids("name")}>
              <TextField.Root id={ids("name")} name="name" defaultValue={keyset.name} maxLength={60} required />
            </Field>
            <Field label="New API key" id={ids("key")}>
              <TextField.Root id={ids("key")} name="apiKey" type="password" autoComplete="off" />
            </Field>
            {rules?.needsEndpoint ? (
              <Field label="Endpoint" id={ids("endpoint")}>
                <TextField.Root id={ids("endpoint")} name="endpoint" type="url" defaultValue={keyset.endpoint ?? ""} required />
              </Field>
            ) : null}
            {rules?.needsModel || keyset.provider === "OpenAI-compatible" ? (
              <Field label="Model" id={ids("model")}>
                <TextField.Root id={ids("model")} name="model" defaultValue={keyset.model ?? ""} required={rules?.needsModel} />
              </Field>
            ) : null}
            {fetcher.state !== "idle" ? <Text size="2">Checking with the provider…</Text> : null}
            {fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? (
              <Text size="2" color="red" role="alert">
                {fetcher.data.error}
              </Text>
            ) : null}
          </Flex>
          <Flex gap="3" mt="4" justify="end">
            <Dialog.Close>
              <Button variant="soft" color="gray" type="button">
                Cancel
              </Button>
            </Dialog.Close>
            <Button type="submit" disabled={fetcher.state !== "idle"}>
              Save
            </Button>
          </Flex>
        </fetcher.Form>
      </Dialog.Content>
    </Dialog.Root>
  );
}

const DELETE_FETCHER = "delete-key";

function DeleteKeyDialog({ keyset }: { keyset: SavedKey }) {
  const fetcher = useFetcher<ActionResult>({ key: DELETE_FETCHER });
  const [open, setOpen] = useState(false);
  return (
    <AlertDialog.Root open={open} onOpenChange={setOpen}>
      <AlertDialog.Trigger>
        <Button size="1" variant="soft" color="red" data-testid="delete-key">
          Delete<span className="dc-visually-hidden"> key {keyset.name}</span>
        </Button>
      </AlertDialog.Trigger>
      <AlertDialog.Content maxWidth="440px">
        <AlertDialog.Title>Delete {keyset.name}?</AlertDialog.Title>
        <AlertDialog.Description size="2">
          The key is removed. Defaults and workspaces that use it go back to the built-in DocuChat model.
        </AlertDialog.Description>
        <fetcher.Form method="post">
          <CsrfInput />
          <input type="hidden" name="intent" value="delete" />
          <input type="hidden" name="id" value={keyset.id} />
          {fetcher.data && !fetcher.data.ok && fetcher.data.intent === "delete" ? (
            <Text size="2" color="red" role="alert">
              {fetcher.data.error}
            </Text>
          ) : null}
          <Flex gap="3" mt="4" justify="end">
            <AlertDialog.Cancel>
              <Button variant="soft" color="gray" type="button">
                Cancel
              </Button>
            </AlertDialog.Cancel>
            <Button type="submit" color="red" highContrast disabled={fetcher.state !== "idle"} data-testid="confirm-delete-key">
              Delete
            </Button>
          </Flex>
        </fetcher.Form>
      </AlertDialog.Content>
    </AlertDialog.Root>
  );
}

function Field({ label, id, children }: { label: string; id: string; children: React.ReactNode }) {
  return (
    <Flex direction="column" gap="1">
      <label htmlFor={id}>
        <Text size="2" weight="medium">
          {label}
        </Text>
      </label>
      {children}
    </Flex>
  );
}

