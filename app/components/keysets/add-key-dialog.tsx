import { Button, Dialog, Flex, Text, TextField } from "@radix-ui/themes";
import { Link, useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { CsrfInput } from "#app/components/csrf-input";
import { addKeysetSchema, PROVIDERS, type Provider } from "#domain/identity/keyset";
import { Field } from "./field";
import type { KeysetActionResult } from "./types";

const PROVIDER_LIST = Object.entries(PROVIDERS).map(([name, rules]) => ({ name: name as Provider, ...rules, subProviders: [...rules.subProviders] }));

export function AddKeyDialog({ onAdded }: { onAdded: (message: string) => void }) {
  const fetcher = useFetcher<KeysetActionResult>();
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
