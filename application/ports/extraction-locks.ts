/**
 * One extraction of a document at a time (issue 42): a background process
 * killed while extracting may leave the tools it started running for a while,
 * and its successor must not extract the same document beside them. The lock
 * is free once its holder and everything the holder started have ended.
 */
export interface ExtractionLocks {
  /** Runs `work` holding the document's lock, waiting for (or ending) what still holds it. */
  holding<T>(documentId: string, work: () => Promise<T>): Promise<T>;
}
