import { Button, Card, Flex, Tabs, Text } from "@radix-ui/themes";
import { useFetcher } from "@remix-run/react";
import { useEffect, useState } from "react";
import { CsrfInput } from "#app/components/csrf-input";
import { BUILT_IN_TRANSCRIPTION_MODEL, MODEL_SCOPES, type ModelScope } from "#domain/identity/keyset";
import type { ChatSettingsData, KeysetActionResult } from "./types";
import { BUILT_IN_EMBEDDING_LABEL, BUILT_IN_EMBEDDING_MODEL_ID } from "#app/components/workspace/chat-preferences";

const SCOPE_LABELS: Record<ModelScope, string> = { text: "Text", image: "Image", embedding: "Embedding Preferences", transcription: "Transcription" };

export function DefaultsTabs({ data, onSaved }: { data: ChatSettingsData; onSaved: (message: string) => void }) {
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

function DefaultForm({ scope, data, onSaved }: { scope: ModelScope; data: ChatSettingsData; onSaved: (message: string) => void }) {
  const fetcher = useFetcher<KeysetActionResult>();
  const current = data.defaults[scope];
  const currentValue = `${current.keysetId}::${current.model}`;
  const [value, setValue] = useState(currentValue);
  useEffect(() => setValue(currentValue), [currentValue]);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok && fetcher.data.intent === "default") onSaved(`${SCOPE_LABELS[scope]} default saved.`);
  }, [fetcher.state, fetcher.data, onSaved, scope]);
  const selectId = `default-${scope}`;
  const builtInLabel = (option: ChatSettingsData["options"][number], label: string) =>
    option.operated ? `${option.keysetName} — ${label}` : "DocuChat (built-in) — extractive: quotes your documents, no AI provider";
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
            // Transcription: the built-in keyset's offline model, and each keyset's transcription models (decision 142).
            if (scope === "transcription") {
              if (builtIn) {
                return (
                  <optgroup key={option.keysetId} label={option.keysetName}>
                    <option value={`${option.keysetId}::${BUILT_IN_TRANSCRIPTION_MODEL}`}>Built-in, offline (basic quality)</option>
                  </optgroup>
                );
              }
              const models = option.transcriptionModels ?? [];
              if (models.length === 0) return null;
              return (
                <optgroup key={option.keysetId} label={option.keysetName}>
                  {models.map((model) => (
                    <option key={model.id} value={`${option.keysetId}::${model.id}`}>
                      {`${option.keysetName} — ${model.label}`}
                    </option>
                  ))}
                </optgroup>
              );
            }
            if (builtIn && scope === "embedding") {
              return (
                <optgroup key={option.keysetId} label={option.keysetName}>
                  {option.embeddingModels.map((model) => (
                    <option key={model.id} value={`${option.keysetId}::${model.id}`}>
                      {model.id === BUILT_IN_EMBEDDING_MODEL_ID ? BUILT_IN_EMBEDDING_LABEL : `${option.keysetName} — ${model.label}`}
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
                    {builtIn ? builtInLabel(option, model.label) : `${option.keysetName} — ${model.label}`}
                  </option>
                ))}
              </optgroup>
            );
          })}
        </select>
        <Text size="1" color="gray">
          {scope === "transcription"
            ? "Used for new recordings; each upload can choose its own. OpenAI and Azure OpenAI keys offer transcription models."
            : "Used for new workspaces; each workspace can choose its own in Workspace Settings."}
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
