import type { AnswerEvent, AnswerInput, LanguageModel, ModelCapabilities, Passage } from "#application/ports/language-model";
import { composeAnswer, rankSentences, sentenceKey, shortlist, sleep, streamChunks, usageOf } from "./composition";
import { composeOverview, suggestQuestionsFrom, summarizePassages } from "./overview";
import { cosineSimilarity } from "./sentence-encoder";

/**
 * The built-in model (ARCHITECTURE §6): no network, no generative AI. It picks
 * the sentences of the retrieved passages that best answer the question
 * (selection.ts), says so when none does (abstention.ts), and quotes them
 * verbatim, each group attributed to its (documentId, pageNumber) with the
 * exact span quoted (composition.ts). Asked for an overview of the
 * documents, it lists their headings with the sentences that open them
 * (overview.ts).
 *
 * Safety by construction: it only ever sees the passages it is handed (scoped
 * to the workspace by retrieval) and only ever outputs fixed phrases plus
 * verbatim sentences of those passages. Document text is data, never
 * instructions: "ignore previous instructions…" in a document can at most be
 * quoted back, and there is nothing else it could reveal.
 */
export interface ExtractiveModelOptions {
  /** Pause between streamed chunks, for a typing effect (default 0). */
  chunkDelayMs?: number;
  /** Words per streamed text event (default 3). */
  wordsPerChunk?: number;
  /** Most sentences quoted in one answer (default 3). */
  maxSentences?: number;
  /** Below this relevance the documents are taken not to contain an answer (default: the threshold measured for the retrieval used). */
  minRelevance?: number;
  /**
   * The built-in sentence encoder, to measure each shortlisted sentence's
   * meaning against the question (decision 071). Absent, or failing, the
   * model decides on words and the passages' meaning alone.
   */
  encoder?: SentenceEncoder;
}

/** Embeds texts ahead of documents waiting to be embedded: a question is waiting for these. */
export interface SentenceEncoder {
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}

export const EXTRACTIVE_MODEL_ID = "docuchat-extractive";

export class ExtractiveModel implements LanguageModel {
  readonly id = EXTRACTIVE_MODEL_ID;
  readonly label = "DocuChat built-in (extractive: quotes your documents, no generative AI)";
  readonly capabilities: ModelCapabilities = { images: false, generative: false };
  private readonly options: Required<Omit<ExtractiveModelOptions, "minRelevance" | "encoder">> & Pick<ExtractiveModelOptions, "minRelevance">;
  private readonly encoder?: SentenceEncoder;

  constructor(options: ExtractiveModelOptions = {}) {
    this.options = {
      chunkDelayMs: options.chunkDelayMs ?? 0,
      wordsPerChunk: Math.max(1, Math.floor(options.wordsPerChunk ?? 3)),
      maxSentences: Math.max(1, Math.floor(options.maxSentences ?? 3)),
      minRelevance: options.minRelevance,
    };
    this.encoder = options.encoder;
  }

  async *streamAnswer(input: AnswerInput, signal?: AbortSignal): AsyncIterable<AnswerEvent> {
    signal?.throwIfAborted();
    const answer = (input.overview && composeOverview(input.passages, input.language)) || composeAnswer(input, { ...this.options, sentenceSimilarity: await this.sentenceSimilarity(input, signal) });
    signal?.throwIfAborted();
    for (const text of streamChunks(answer.text, this.options.wordsPerChunk)) {
      if (this.options.chunkDelayMs > 0) await sleep(this.options.chunkDelayMs, signal);
      signal?.throwIfAborted();
      yield { type: "text", text };
    }
    signal?.throwIfAborted();
    yield { type: "done", citations: answer.citations, usage: usageOf(input, answer.text) };
  }

  /**
   * Each shortlisted sentence's cosine similarity to the question, when
   * retrieval measured the passages' meaning (hybrid retrieval, where the
   * rule was measured). One batch of a question and a few sentences.
   */
  private async sentenceSimilarity(input: AnswerInput, signal?: AbortSignal): Promise<Map<string, number> | undefined> {
    if (!this.encoder) return undefined;
    const ranked = rankSentences(input, this.options);
    if (!ranked?.withSimilarities) return undefined;
    const sentences = shortlist(ranked);
    if (sentences.length === 0) return undefined;
    try {
      const [question, ...vectors] = await this.encoder.embed([input.question, ...sentences.map((s) => s.text)], signal);
      return new Map(sentences.map((sentence, i) => [sentenceKey(sentence), cosineSimilarity(question, vectors[i])]));
    } catch (error) {
      if (signal?.aborted) throw error;
      // The encoder's thread died or is stopping: answer on words and passages' meaning, as without it.
      return undefined;
    }
  }

  async summarize(input: { passages: Passage[]; language: string }): Promise<string> {
    return summarizePassages(input.passages);
  }

  /**
   * Questions about the passages' headings, captions and key terms that this model can answer
   * from them: each candidate is answered here first, and one it would decline is not suggested.
   */
  async suggestQuestions(input: { passages: Passage[]; count: number; language?: string }): Promise<string[]> {
    const language = input.language ?? "English";
    const candidates = suggestQuestionsFrom(input.passages, input.count * 3, language);
    const answerable = candidates.filter((question) => composeAnswer({ question, history: [], passages: input.passages, language }, this.options).citations.length > 0);
    return answerable.slice(0, Math.max(0, Math.floor(input.count)));
  }
}
