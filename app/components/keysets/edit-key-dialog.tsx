import { Button, Dialog, Flex, Text, TextField } from "@radix-ui/themes";
import { useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { CsrfInput } from "#app/components/csrf-input";
import { PROVIDERS, type Provider } from "#domain/identity/keyset";
import { Field } from "./field";
import type { KeysetActionResult, SavedKey } from "./types";

export function EditKeyDialog({ keyset, onSaved }: { keyset: SavedKey; onSaved: (message: string) => void }) {
  const fetcher = useFetcher<KeysetActionResult>();
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
