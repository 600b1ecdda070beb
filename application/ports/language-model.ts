/**
 * The port every chat model implements (ARCHITECTURE §6): the built-in
 * extractive model today, provider models (through a multi-provider library)
 * later. Deliberately small and provider-shaped: text in, a stream of text
 * out, then one `done` event carrying what the transport puts in the message's
 * metadata after `[END]` (citations, token counts).
 *
 * Models never search: the caller retrieves passages within the workspace's
 * documents (retrieval.ts) and hands them over. A model can only ever quote or
 * paraphrase what it was given, which is what keeps other users' data out of
 * reach whatever a document or a question says.
 */

/** One retrieved chunk of a document in the conversation's workspace. */
export interface Passage {
  chunkId: string;
  documentId: string;
  /** Display name of the document, for lead-ins such as "According to <name> (page 4)". */
  documentName: string;
  pageNumber: number;
  text: string;
  /** Retrieval score, higher is better (fused rank score; only the order is meaningful). */
  score: number;
  /**
   * Cosine similarity of the passage to the question in the workspace's
   * embedding space, when dense search ranked it (absent for keyword-only
   * hits and workspaces without an embedding model). Unlike `score` it is
   * comparable across questions: how close in meaning, not just the order.
   */
  similarity?: number;
}

export interface ChatTurn {
  role: "user" | "assistant";
  text: string;
}

export interface Citation {
  documentId: string;
  pageNumber: number;
  /** The exact span of the passage's text the answer rests on (for the viewer's highlight), when the model knows it. */
  quote?: string;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface AnswerInput {
  question: string;
  /** Text the user selected in a document viewer and asked about, when any. */
  selectedText?: string;
  /** Earlier turns of the conversation, oldest first. */
  history: ChatTurn[];
  /** Passages retrieved from the workspace's documents, best first. */
  passages: Passage[];
  /**
   * How common the question's words are in the workspace (retrieval.ts
   * `termStatistics`), so a model can weigh them by IDF over the workspace
   * rather than over the few passages it was handed. Optional: models that
   * do not weigh words ignore it.
   */
  termStatistics?: TermStatistics;
  /**
   * The question asks for an overview of the documents ("Summarise the key points of this
   * document"): the passages are spread over the documents, not searched for its words.
   */
  overview?: boolean;
  /** The user's response language as an English name ("English", "Spanish") or an ISO 639-1 code ("es"). */
  language: string;
  /** Images attached to the question; only models with `capabilities.images` read them. */
  images?: { contentType: string; /** The image's bytes, when the caller loaded them (vision models read them). */ data?: Uint8Array }[];
}

/** Chunks in the workspace, and per analyzed term (text-analysis `contentTerms`) how many of them hold it (counted up to a cap). */
export interface TermStatistics {
  chunks: number;
  documentFrequency: Record<string, number>;
}

export type AnswerEvent =
  | { type: "text"; text: string }
  /** Last event of every completed answer; citations are once per document-page pair, in order of first use. */
  | {
      type: "done";
      citations: Citation[];
      usage: TokenUsage;
      /** The model that really answered, when not the one asked (the offline model standing in for a failing provider). */
      answeredBy?: string;
    };

export interface ModelCapabilities {
  /** Reads images attached to a question. */
  images: boolean;
  /** Writes new text (a provider LLM) rather than quoting the documents (the built-in model). */
  generative: boolean;
}

export interface LanguageModel {
  /** Stable id stored with each message ("docuchat-extractive", "openai:gpt-4o-mini", …). */
  readonly id: string;
  /** What the model picker shows; must say honestly what the model is. */
  readonly label: string;
  readonly capabilities: ModelCapabilities;
  /**
   * Streams the answer as text events, then exactly one `done` event.
   * When `signal` aborts, the iteration stops by throwing the signal's reason
   * (no `done` event follows).
   */
  streamAnswer(input: AnswerInput, signal?: AbortSignal): AsyncIterable<AnswerEvent>;
  /** A short summary of a conversation's or document's passages, in `language` where the model can. */
  summarize(input: { passages: Passage[]; language: string }): Promise<string>;
  /** Up to `count` distinct questions the passages can answer. */
  suggestQuestions(input: { passages: Passage[]; count: number; language?: string }): Promise<string[]>;
  /**
   * Other wordings of a question as search queries (query rewrite), for
   * retrieval to search beside the question itself. Generative models only;
   * the caller bounds the time and ignores failures.
   */
  alternateQueries?(input: { question: string; history: ChatTurn[] }, signal?: AbortSignal): Promise<string[]>;
}
