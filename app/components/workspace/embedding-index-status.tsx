import { Callout, Progress, Text } from "@radix-ui/themes";
import { useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { BUILT_IN_EMBEDDING_MODEL_ID } from "./chat-preferences";

export type EmbeddingIndexView = {
  model: string;
  status: "indexing" | "ready";
  done: number;
  total: number;
  failures: { documentId: string; reason: string }[];
};

const documentsWord = (n: number) => (n === 1 ? "document" : "documents");

/**
 * What the status says while indexing (issue 44 item 5): documents done of all
 * once one is done; before that, words and no number (a run of one document
 * would otherwise read "0 of 1" from start to end). `percent` null: a bar that
 * says work is going on without claiming how much.
 */
export function indexingProgress(index: Pick<EmbeddingIndexView, "done" | "total">, model: string): { text: string; percent: number | null } {
  if (index.done === 0 || index.total === 0) {
    const what = index.total > 0 ? `your ${index.total} ${documentsWord(index.total)}` : "your documents";
    return { text: `Indexing ${what} with ${model}. Answers use keyword search until it finishes.`, percent: null };
  }
  return { text: `Indexing with ${model}: ${index.done} of ${index.total} ${documentsWord(index.total)} done.`, percent: Math.round((index.done / index.total) * 100) };
}

/** Re-indexing with the workspace's embedding model, as it goes (the page reloads its data while the dialog is open). */
export function EmbeddingIndexStatus({ index, documents, watching }: { index: EmbeddingIndexView; documents: { documentId: string; documentName: string }[]; watching: boolean }) {
  const revalidator = useRevalidator();
  const indexing = index.status === "indexing";
  useEffect(() => {
    if (!indexing || !watching) return;
    const timer = setInterval(() => revalidator.state === "idle" && revalidator.revalidate(), 1500);
    return () => clearInterval(timer);
  }, [indexing, watching, revalidator]);
  const name = (id: string) => documents.find((d) => d.documentId === id)?.documentName ?? "A document";
  const model = index.model === BUILT_IN_EMBEDDING_MODEL_ID ? "the built-in model" : index.model;
  const progress = indexingProgress(index, model);
  return (
    <div className="dc-ws-field" data-testid="embedding-index" data-status={index.status}>
      {indexing ? (
        <>
          <Text size="2" role="status">
            {progress.text}
          </Text>
          <Progress value={progress.percent ?? undefined} aria-label={`Indexing with ${model}`} />
        </>
      ) : (
        <Text size="2" role="status">
          Documents indexed with {model}: {index.total - index.failures.length} of {index.total}. Answers use them together with keyword search.
        </Text>
      )}
      {index.failures.length > 0 ? (
        <Callout.Root color="red" size="1" role="alert">
          <Callout.Text>
            {index.failures.map((f) => `${name(f.documentId)}: ${f.reason}`).join(" ")} These use keyword search only.
          </Callout.Text>
        </Callout.Root>
      ) : null}
    </div>
  );
}
