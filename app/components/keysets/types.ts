import type { KeysetView, ModelDefaultsView } from "#application/identity/keyset-service";
import type { ModelOption } from "#application/identity/keyset-models";

/** What the Chat Settings page's action answers (one shape for every intent). */
export type KeysetActionResult =
  | { ok: true; intent: string; message?: string; apiKey?: string; keysetId?: string }
  | { ok: false; intent: string; error: string; field?: string; needsPassword?: boolean };

/** A saved key as the page shows it: never the key itself. */
export type SavedKey = Omit<KeysetView, "ownerId" | "createdAt">;

export type ChatSettingsData = { keysets: SavedKey[]; defaults: ModelDefaultsView; options: ModelOption[] };
