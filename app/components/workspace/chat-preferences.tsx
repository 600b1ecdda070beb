import { Flex, Select, Text } from "@radix-ui/themes";
import { useId } from "react";

/**
 * Chat preferences (text, image, embedding keyset and model). Provider keysets
 * do not exist yet, so each select offers the one honest built-in option; the
 * values are what the server stores (keysetId::model, or "keyword" = no embedding).
 */
export const BUILT_IN_KEYSET_ID = "docuchat";
export const BUILT_IN_MODEL_ID = "docuchat-extractive";
export const BUILT_IN_VALUE = `${BUILT_IN_KEYSET_ID}::${BUILT_IN_MODEL_ID}`;
export const KEYWORD_VALUE = "keyword";

export type ChatPreferenceValues = { text: string; image: string; embedding: string };
export const DEFAULT_PREFERENCE_VALUES: ChatPreferenceValues = { text: BUILT_IN_VALUE, image: BUILT_IN_VALUE, embedding: KEYWORD_VALUE };

const OPTIONS = {
  text: [{ value: BUILT_IN_VALUE, label: "DocuChat built-in (extractive)" }],
  image: [{ value: BUILT_IN_VALUE, label: "DocuChat built-in (extractive)" }],
  embedding: [{ value: KEYWORD_VALUE, label: "Keyword search (built-in)" }],
} as const;

export const preferenceLabel = (kind: keyof ChatPreferenceValues, value: string) =>
  OPTIONS[kind].find((o) => o.value === value)?.label ?? value;

type Preference = { keysetId: string; model: string };

/** Server shape ↔ select values. */
export function toPreferenceValues(pref: { text: Preference; image: Preference; embedding: Preference | null } | null | undefined): ChatPreferenceValues {
  if (!pref) return DEFAULT_PREFERENCE_VALUES;
  return {
    text: `${pref.text.keysetId}::${pref.text.model}`,
    image: `${pref.image.keysetId}::${pref.image.model}`,
    embedding: pref.embedding ? `${pref.embedding.keysetId}::${pref.embedding.model}` : KEYWORD_VALUE,
  };
}

export function fromPreferenceValues(values: Partial<Record<keyof ChatPreferenceValues, unknown>>) {
  const choice = (raw: unknown) => {
    const [keysetId, model] = String(raw ?? BUILT_IN_VALUE).split("::");
    return { keysetId: keysetId || BUILT_IN_KEYSET_ID, model: model || BUILT_IN_MODEL_ID };
  };
  return {
    text: choice(values.text),
    image: choice(values.image),
    embedding: !values.embedding || values.embedding === KEYWORD_VALUE ? null : choice(values.embedding),
  };
}

export function ChatPreferenceFields({ values, onChange }: { values: ChatPreferenceValues; onChange: (values: ChatPreferenceValues) => void }) {
  return (
    <Flex direction="column" gap="4">
      <PreferenceSelect kind="text" label="Text model" hint="Answers questions about your documents." values={values} onChange={onChange} />
      <PreferenceSelect kind="image" label="Image model" hint="Reads images you add to the chat." values={values} onChange={onChange} />
      <PreferenceSelect kind="embedding" label="Embedding" hint="Finds the passages an answer is built from." values={values} onChange={onChange} />
      <Text size="2" color="gray">
        Your own provider keys (OpenAI, Anthropic, Azure…) will appear here once you add them in Chat Settings — a later release.
      </Text>
    </Flex>
  );
}

function PreferenceSelect({
  kind,
  label,
  hint,
  values,
  onChange,
}: {
  kind: keyof ChatPreferenceValues;
  label: string;
  hint: string;
  values: ChatPreferenceValues;
  onChange: (values: ChatPreferenceValues) => void;
}) {
  const id = useId();
  return (
    <div className="dc-ws-field">
      <Text as="label" htmlFor={id} size="2" weight="medium" id={`${id}-label`}>
        {label}
      </Text>
      <Select.Root value={values[kind]} onValueChange={(v) => onChange({ ...values, [kind]: v })} name={kind}>
        <Select.Trigger id={id} aria-labelledby={`${id}-label`} className="dc-ws-select" data-testid={`pref-${kind}`} />
        <Select.Content position="popper">
          {OPTIONS[kind].map((o) => (
            <Select.Item key={o.value} value={o.value}>
              {o.label}
            </Select.Item>
          ))}
        </Select.Content>
      </Select.Root>
      <Text size="1" color="gray">
        {hint}
      </Text>
    </div>
  );
}
