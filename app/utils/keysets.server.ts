import type { KeysetView } from "#application/identity/keyset-service";

/** The keyset as the spec's calls name its fields (spec 001 §3 Keyset); never the key. */
export function keysetJson(keyset: KeysetView) {
  return {
    keySet_id: keyset.id,
    keySet_name: keyset.name,
    provider: keyset.provider,
    sub_provider: keyset.subProvider,
    endpoint: keyset.endpoint,
    model: keyset.model,
    models: keyset.models.map((model_name) => ({ model_name })),
    lastUsed: keyset.lastUsed,
  };
}

/** Accepts the spec's field names (keySet_name, apikey, sub_provider) or the form's. */
export function keysetInput(body: unknown): Record<string, unknown> {
  const b = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  const pick = (...names: string[]) => names.map((n) => b[n]).find((v) => v !== undefined);
  const out: Record<string, unknown> = {
    name: pick("keySet_name", "name"),
    apiKey: pick("apikey", "apiKey"),
    provider: pick("provider"),
    subProvider: pick("sub_provider", "subProvider"),
    endpoint: pick("endpoint"),
    model: pick("model"),
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined && v !== null));
}
