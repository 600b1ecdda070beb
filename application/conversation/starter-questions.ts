/**
 * What an empty chat offers besides the questions written from the documents themselves (issue 44
 * item 2, decision 281): an overview of the workspace, which every model answers (the offline one
 * with the documents' headings and the sentences that open them), and, for a generative model, the
 * questions only a model that writes can answer.
 */
export const overviewRequest = (oneDocument: boolean) => `What are the key points of ${oneDocument ? "this document" : "these documents"}?`;

export const GENERATIVE_STARTERS = [
  "What are the main conclusions?",
  "List the important dates, numbers and names",
  "Explain the most difficult concept in simple terms",
  "What questions could I be asked about this material?",
];

/** A request to summarise the documents as a whole; "Can you summarise the part about X?" asks about one part. */
const OVERVIEW_REQUEST =
  /^(?:please\s+|can you\s+|could you\s+)?(?:summari[sz]e|sum up|give (?:me )?(?:an? )?(?:overview|summary) of|what are the key points of)(?:\s+the (?:key|main) points of)?\s+(?:this|these|the|my|our)\s+(?:documents?|files?|papers?|workspace|material)\b/i;

export const asksForOverview = (question: string) => OVERVIEW_REQUEST.test(question.trim());
