import type { AnswerEvent, AnswerInput, LanguageModel } from "#application/ports/language-model";
import type { ModelProviders, ProviderKeyset } from "#application/ports/model-providers";
import type { SearchIndex } from "#application/ports/search-index";
import type { Tracing } from "#application/ports/tracing";
import { providerOf } from "./measured-models";

/** A language model whose calls are spans of the current trace: the answer's span lasts until its last token. */
export function tracedModel(model: LanguageModel, tracing: Tracing): LanguageModel {
  if (!tracing.enabled) return model;
  const attributes = { "gen_ai.system": providerOf(model.id), "gen_ai.request.model": model.id };
  return {
    id: model.id,
    label: model.label,
    capabilities: model.capabilities,
    async *streamAnswer(input: AnswerInput, signal?: AbortSignal): AsyncIterable<AnswerEvent> {
      const span = tracing.openSpan("model answer", { kind: "client", attributes: { ...attributes, "docuchat.passages": input.passages.length } }, (opened) => opened);
      let failure: unknown;
      try {
        for await (const event of model.streamAnswer(input, signal)) {
          if (event.type === "done") span.set({ "gen_ai.usage.input_tokens": event.usage.inputTokens, "gen_ai.usage.output_tokens": event.usage.outputTokens });
          yield event;
        }
      } catch (error) {
        failure = error;
        throw error;
      } finally {
        // Also when the reader stops early (the page closed): the span ends with the stream.
        span.end(failure);
      }
    },
    summarize: (input) => tracing.inSpan("model summary", { kind: "client", attributes }, () => model.summarize(input)),
    suggestQuestions: (input) => tracing.inSpan("model suggestions", { kind: "client", attributes }, () => model.suggestQuestions(input)),
    // A question's rewrite is offered only by the models that have one (the caller asks only those).
    ...(model.alternateQueries
      ? {
          alternateQueries: (input: Parameters<NonNullable<LanguageModel["alternateQueries"]>>[0], signal?: AbortSignal) =>
            tracing.inSpan("model rewrite", { kind: "client", attributes }, () => model.alternateQueries!(input, signal)),
        }
      : {}),
  };
}

/** The provider registry with every language model and embedder it builds traced. */
export function tracedProviders(providers: ModelProviders, tracing: Tracing): ModelProviders {
  if (!tracing.enabled) return providers;
  return {
    ...providers,
    languageModel: (keyset: ProviderKeyset, model: string) => tracedModel(providers.languageModel(keyset, model), tracing),
    embedder: (keyset: ProviderKeyset, model: string) => {
      const embedder = providers.embedder(keyset, model);
      const attributes = { "gen_ai.system": providerOf(embedder.id), "gen_ai.request.model": embedder.id };
      return { id: embedder.id, embed: (texts, signal) => tracing.inSpan("model embeddings", { kind: "client", attributes: { ...attributes, "docuchat.texts": texts.length } }, () => embedder.embed(texts, signal)) };
    },
  };
}

/** The search index with its searches as spans (retrieval's part of a question's trace). */
export function tracedSearchIndex(index: SearchIndex, tracing: Tracing): SearchIndex {
  if (!tracing.enabled) return index;
  return {
    upsert: (chunks) => index.upsert(chunks),
    deleteDocument: (documentId) => index.deleteDocument(documentId),
    deleteOwner: (ownerId) => index.deleteOwner(ownerId),
    countChunks: (documentId) => index.countChunks(documentId),
    listChunks: (documentId) => index.listChunks(documentId),
    upsertVectors: (space, vectors) => index.upsertVectors(space, vectors),
    countVectors: (space, documentId) => index.countVectors(space, documentId),
    chunksAt: (documentId, ordinals) => index.chunksAt(documentId, ordinals),
    searchText: (query, scope, limit) =>
      tracing.inSpan("search text", { kind: "client", attributes: { "docuchat.limit": limit } }, async (span) => {
        const hits = await index.searchText(query, scope, limit);
        span.set({ "docuchat.hits": hits.length });
        return hits;
      }),
    searchVector: (space, vector, scope, limit) =>
      tracing.inSpan("search vectors", { kind: "client", attributes: { "docuchat.space": space, "docuchat.limit": limit } }, async (span) => {
        const hits = await index.searchVector(space, vector, scope, limit);
        span.set({ "docuchat.hits": hits.length });
        return hits;
      }),
  };
}
