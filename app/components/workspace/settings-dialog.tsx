import { Button, Callout, Dialog, Flex, Tabs, Text, TextArea, TextField } from "@radix-ui/themes";
import { useFetcher } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useToast } from "#app/components/toast";
import { renameWorkspaceSchema } from "#domain/workspace/workspace-rules";
import { ChatPreferenceFields, type ChatPreferenceValues, KEYWORD_VALUE, type PreferenceOptions } from "./chat-preferences";
import { EmbeddingIndexStatus, type EmbeddingIndexView } from "./embedding-index-status";
import { useCsrfToken } from "#app/components/use-csrf";

export type SettingsActionResult = { ok: boolean; intent: string; message: string; field?: string };

/** Workspace Settings: tabs Workspace details (rename) and Chat Preferences (spec 001 §2/§5). */
export function SettingsDialog({
  open,
  onOpenChange,
  name,
  description,
  preferences,
  preferenceOptions,
  embeddingIndex = null,
  documents = [],
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  name: string;
  description: string;
  preferences: ChatPreferenceValues;
  preferenceOptions?: PreferenceOptions;
  embeddingIndex?: EmbeddingIndexView | null;
  documents?: { documentId: string; documentName: string }[];
}) {
  const fetcher = useFetcher<SettingsActionResult>();
  const toast = useToast();
  const csrfToken = useCsrfToken();
  const [tab, setTab] = useState("details");
  const [form, setForm] = useState({ name, description });
  const [error, setError] = useState<string | null>(null);
  const [prefs, setPrefs] = useState(preferences);

  useEffect(() => {
    if (!open) return;
    setForm({ name, description });
    setPrefs(preferences);
    setError(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  useEffect(() => {
    const result = fetcher.data;
    if (!result || fetcher.state !== "idle") return;
    if (result.ok) {
      toast.push({ type: "success", message: result.message });
      onOpenChange(false);
    } else if (result.field === "name") setError(result.message);
    else toast.push({ type: "error", message: result.message });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.data, fetcher.state]);

  const busy = fetcher.state !== "idle";

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="520px" data-testid="settings-dialog">
        <Dialog.Title>Workspace Settings</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="3">
          Rename the workspace or choose the models its chats use.
        </Dialog.Description>
        <Tabs.Root value={tab} onValueChange={setTab}>
          <Tabs.List>
            <Tabs.Trigger value="details">Workspace details</Tabs.Trigger>
            <Tabs.Trigger value="preferences">Chat Preferences</Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="details">
            <fetcher.Form
              method="post"
              className="dc-ws-form dc-wsx-settings__form"
              noValidate
              onSubmit={(event) => {
                const parsed = renameWorkspaceSchema.safeParse(form);
                if (!parsed.success) {
                  event.preventDefault();
                  setError(parsed.error.issues[0]?.message ?? "Workspace name is required");
                }
              }}
            >
              <input type="hidden" name="csrf" value={csrfToken} />
              <input type="hidden" name="intent" value="rename" />
              <div className="dc-ws-field">
                <Text as="label" htmlFor="settings-name" size="2" weight="medium">
                  Workspace name
                </Text>
                <TextField.Root
                  id="settings-name"
                  name="name"
                  value={form.name}
                  onChange={(e) => {
                    const value = e.currentTarget.value;
                    setForm((f) => ({ ...f, name: value }));
                    setError(null);
                  }}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? "settings-name-error" : undefined}
                />
                {error ? (
                  <Text size="1" color="red" id="settings-name-error" role="alert">
                    {error}
                  </Text>
                ) : null}
              </div>
              <div className="dc-ws-field">
                <Text as="label" htmlFor="settings-description" size="2" weight="medium">
                  Description
                </Text>
                <TextArea
                  id="settings-description"
                  name="description"
                  rows={3}
                  value={form.description}
                  onChange={(e) => {
                    const value = e.currentTarget.value;
                    setForm((f) => ({ ...f, description: value }));
                  }}
                />
              </div>
              <Flex gap="3" justify="end">
                <Dialog.Close>
                  <Button type="button" variant="soft" color="gray">
                    Cancel
                  </Button>
                </Dialog.Close>
                <Button type="submit" loading={busy} data-testid="save-details">
                  Save
                </Button>
              </Flex>
            </fetcher.Form>
          </Tabs.Content>
          <Tabs.Content value="preferences">
            <fetcher.Form method="post" className="dc-ws-form dc-wsx-settings__form">
              <input type="hidden" name="csrf" value={csrfToken} />
              <input type="hidden" name="intent" value="chatPreference" />
              <input type="hidden" name="prefText" value={prefs.text} />
              <input type="hidden" name="prefImage" value={prefs.image} />
              <input type="hidden" name="prefEmbedding" value={prefs.embedding} />
              <ChatPreferenceFields values={prefs} onChange={setPrefs} options={preferenceOptions} />
              {embeddingIndex && preferences.embedding !== KEYWORD_VALUE ? <EmbeddingIndexStatus index={embeddingIndex} documents={documents} watching={open} /> : null}
              <Flex gap="3" justify="end">
                <Dialog.Close>
                  <Button type="button" variant="soft" color="gray">
                    Cancel
                  </Button>
                </Dialog.Close>
                <Button type="submit" loading={busy}>
                  Save
                </Button>
              </Flex>
            </fetcher.Form>
          </Tabs.Content>
        </Tabs.Root>
      </Dialog.Content>
    </Dialog.Root>
  );
}
