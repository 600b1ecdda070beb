import { Flex, Select, Text } from "@radix-ui/themes";
import { useId } from "react";

/**
 * Chat preferences (text, image, embedding keyset and model): the built-in
 * model and the models of the user's own keysets (Chat Settings). The values
 * are what the server stores (keysetId::model, or "keyword" = no embedding).
 */
export const BUILT_IN_KEYSET_ID = "docuchat";
export const BUILT_IN_MODEL_ID = "docuchat-extractive";
export const BUILT_IN_VALUE = `${BUILT_IN_KEYSET_ID}::${BUILT_IN_MODEL_ID}`;
export const KEYWORD_VALUE = "keyword";
/** The built-in keyset's offline embedding model (offered when the server runs it: the catalog lists it). */
export const BUILT_IN_EMBEDDING_MODEL_ID = "docuchat-sentence-encoder";
export const BUILT_IN_EMBEDDING_VALUE = `${BUILT_IN_KEYSET_ID}::${BUILT_IN_EMBEDDING_MODEL_ID}`;
export const BUILT_IN_EMBEDDING_LABEL = "DocuChat built-in: semantic search (offline)";

export type ChatPreferenceValues = { text: string; image: string; embedding: string };
export const DEFAULT_PREFERENCE_VALUES: ChatPreferenceValues = { text: BUILT_IN_VALUE, image: BUILT_IN_VALUE, embedding: KEYWORD_VALUE };

export type PreferenceOption = { value: string; label: string };
export type PreferenceOptions = Record<keyof ChatPreferenceValues, PreferenceOption[]>;

const BUILT_IN_OPTIONS: PreferenceOptions = {
  text: [{ value: BUILT_IN_VALUE, label: "DocuChat built-in (extractive)" }],
  image: [{ value: BUILT_IN_VALUE, label: "DocuChat built-in (extractive)" }],
  // Keyword search only is always offered; the built-in embedding model when the catalog lists it.
  embedding: [{ value: KEYWORD_VALUE, label: "Keyword search only (built-in)" }],
};

type CatalogEntry = { keysetId: string; keysetName: string; models: { id: string; label: string }[]; embeddingModels?: { id: string; label: string }[]; operated?: boolean };

/**
 * The select options from the user's model catalog (GET /api/models' shape):
 * the product's keyset first — under the product's name with the operator's
 * model when one is configured (decision 190), else the offline model as always.
 */
export function preferenceOptions(catalog: CatalogEntry[]): PreferenceOptions {
  const keysets = catalog.filter((k) => k.keysetId !== BUILT_IN_KEYSET_ID);
  const options = (pick: (k: (typeof keysets)[number]) => { id: string; label: string }[]) =>
    keysets.flatMap((k) => pick(k).map((m) => ({ value: `${k.keysetId}::${m.id}`, label: `${k.keysetName} · ${m.label}` })));
  const models = options((k) => k.models);
  const product = catalog.find((k) => k.keysetId === BUILT_IN_KEYSET_ID);
  const productText = product?.operated && product.models[0] ? [{ value: BUILT_IN_VALUE, label: `${product.keysetName} · ${product.models[0].label}` }] : BUILT_IN_OPTIONS.text;
  const productEmbeddings = (product?.embeddingModels ?? []).map((m) => ({
    value: `${BUILT_IN_KEYSET_ID}::${m.id}`,
    label: m.id === BUILT_IN_EMBEDDING_MODEL_ID ? BUILT_IN_EMBEDDING_LABEL : `${product!.keysetName} · ${m.label}`,
  }));
  return {
    text: [...productText, ...models],
    image: [...productText, ...models],
    embedding: [...productEmbeddings, ...BUILT_IN_OPTIONS.embedding, ...options((k) => k.embeddingModels ?? [])],
  };
}

export const preferenceLabel = (kind: keyof ChatPreferenceValues, value: string, options: PreferenceOptions = BUILT_IN_OPTIONS) =>
  options[kind].find((o) => o.value === value)?.label ?? value;

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

/**
 * A new workspace's starting values: the user's defaults (Chat Settings) where
 * the pickers offer them, otherwise the built-in ones — so the wizard shows,
 * and submits, the defaults the user chose.
 */
export function startingPreferenceValues(
  defaults: { text: Preference; image: Preference; embedding: Preference | null } | null | undefined,
  options: PreferenceOptions = BUILT_IN_OPTIONS,
): ChatPreferenceValues {
  const values = toPreferenceValues(defaults);
  // Each picker's first option is the product's default (the built-in embedding model where the server runs it).
  const fallback = (kind: keyof ChatPreferenceValues) => options[kind][0]?.value ?? DEFAULT_PREFERENCE_VALUES[kind];
  const offered = (kind: keyof ChatPreferenceValues) =>
    defaults && options[kind].some((o) => o.value === values[kind]) ? values[kind] : fallback(kind);
  return { text: offered("text"), image: offered("image"), embedding: offered("embedding") };
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

export function ChatPreferenceFields({
  values,
  onChange,
  options = BUILT_IN_OPTIONS,
}: {
  values: ChatPreferenceValues;
  onChange: (values: ChatPreferenceValues) => void;
  options?: PreferenceOptions;
}) {
  return (
    <Flex direction="column" gap="4">
      <PreferenceSelect kind="text" label="Text model" hint="Answers questions about your documents." values={values} onChange={onChange} options={options} />
      <PreferenceSelect kind="image" label="Image model" hint="Reads images you add to the chat." values={values} onChange={onChange} options={options} />
      <PreferenceSelect kind="embedding" label="Embedding" hint="Finds the passages an answer is built from." values={values} onChange={onChange} options={options} />
      <Text size="2" color="gray">
        Models of your own provider keys (OpenAI, Anthropic, Azure, an OpenAI-compatible server…) appear here once you add them in{" "}
        <a href="/profile/chat-settings">Chat Settings</a>.
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
  options,
}: {
  kind: keyof ChatPreferenceValues;
  label: string;
  hint: string;
  values: ChatPreferenceValues;
  onChange: (values: ChatPreferenceValues) => void;
  options: PreferenceOptions;
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
          {options[kind].map((o) => (
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
