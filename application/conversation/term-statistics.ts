import type { TermStatistics } from "#application/ports/language-model";
import type { SearchIndex } from "#application/ports/search-index";
import { contentTerms } from "#application/shared/text-analysis";
import { questionContentWords } from "./retrieval";

/**
 * How many of the workspace's chunks hold each content word of the question,
 * asked of the index one word at a time (counted up to DOCUMENT_FREQUENCY_CAP:
 * beyond that a word is simply common), and how many chunks the workspace has.
 * With these the model weighs a word by its rarity in the workspace: "Lessig"
 * in a book by Lessig is common among the passages retrieved for it, yet rare
 * in the book, and a word no chunk holds is strong evidence the workspace does
 * not speak of it.
 */
export async function termStatistics(options: { index: SearchIndex; question: string; documentIds: string[] }): Promise<TermStatistics | undefined> {
  const documentIds = [...new Set(options.documentIds.filter((id) => id.length > 0))];
  if (documentIds.length === 0) return undefined;
  const scope = { documentIds };
  const chunks = (await Promise.all(documentIds.map((id) => options.index.countChunks(id)))).reduce((sum, n) => sum + n, 0);
  const documentFrequency: Record<string, number> = {};
  for (const word of new Set(questionContentWords(options.question))) {
    const [term] = contentTerms(word);
    if (!term || term in documentFrequency) continue;
    documentFrequency[term] = (await options.index.searchText(word, scope, DOCUMENT_FREQUENCY_CAP)).length;
  }
  return { chunks, documentFrequency };
}

/** Past this many chunks a word is common; counting further would only cost time. */
const DOCUMENT_FREQUENCY_CAP = 200;
