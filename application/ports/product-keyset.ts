import type { LanguageModel } from "./language-model";
import type { Embedder } from "./model-providers";

/**
 * The product's own keyset (spec 000 §1): what every user without a default
 * of their own answers and embeds with, and what a deleted keyset falls back
 * to. The operator decides what stands behind it (docs/decisions/190): a
 * provider or a model server on their network for text, image and embedding,
 * each; unset, the offline models. Its key stays inside the models built
 * here: nothing of it is exposed through this port.
 */
export interface ProductKeyset {
  /** What users see it called: the product's name. */
  readonly name: string;
  /** Whether an operator's provider stands behind the text model (else the offline model answers). */
  readonly operated: boolean;
  readonly text: LanguageModel;
  readonly image: LanguageModel;
  /** The offline extractive model: the text model when none is configured, the stand-in when the operator allows one. */
  readonly offline: LanguageModel;
  /**
   * The keyset's embedding models, its default first: the operator's, then
   * the offline one where the server runs it. `model` names the vector space
   * (`docuchat/<model>`, decision 043), so two models never share one.
   */
  readonly embedders: ProductEmbedder[];
}

export interface ProductEmbedder {
  model: string;
  label: string;
  embedder: Embedder;
}
