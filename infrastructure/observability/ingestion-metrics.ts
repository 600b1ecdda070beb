import type { Logger } from "pino";
import type { EventStore, RecordedEvent, Subscription } from "#application/ports/event-store";
import type { OperationsMetrics } from "#application/ports/metrics";

/**
 * Ingestion is measured from the log, not inside the activities: a document's
 * events say when its file arrived, how many pages it had, how many OCR read,
 * and when it became ACTIVE or FAILED. The background process follows the log
 * from the head it finds at start (history is not counted again after a restart).
 * A document that ends FAILED is also logged at warn with its reason: its owner
 * sees it fail, so the operator should too.
 */
export function measureIngestionFromLog(events: EventStore, metrics: OperationsMetrics, logger: Pick<Logger, "warn">): { stop(): Promise<void> } {
  let subscription: Subscription | null = null;
  let stopped = false;
  const onEvent = async (event: RecordedEvent) => {
    if (!event.streamId.startsWith("document-")) return;
    if (event.type === "DocumentTextExtracted") {
      const ocr = (event.data as { pagesReadByOcr?: number[] }).pagesReadByOcr?.length ?? 0;
      if (ocr > 0) metrics.ocrPagesRead(ocr);
      return;
    }
    if (event.type !== "DocumentActivated" && event.type !== "DocumentFailed") return;
    const stream = await events.readStream(event.streamId);
    const began = stream.find((e) => e.type === "DocumentFileReceived") ?? stream.find((e) => e.type === "DocumentRegistered");
    if (!began) return;
    const pages = stream.reduce((count, e) => (e.type === "DocumentTextExtracted" ? (e.data as { pageCount: number }).pageCount : count), 0);
    const seconds = Math.max(0, (Date.parse(event.recordedAt) - Date.parse(began.recordedAt)) / 1000);
    metrics.ingestionFinished(event.type === "DocumentActivated" ? "active" : "failed", seconds, pages);
    if (event.type === "DocumentFailed") {
      logger.warn({ documentId: event.streamId.slice("document-".length), reason: (event.data as { reason: string }).reason, seconds }, "document ingestion failed");
    }
  };
  const ready = events.headPosition().then((head) => {
    if (stopped) return;
    // A count that fails to be made (a stream unreadable for a moment) is skipped, never stops the following.
    subscription = events.subscribeToAll({ fromPosition: head, onEvent: (event) => onEvent(event).catch(() => undefined), onError: () => undefined });
  });
  return {
    async stop() {
      stopped = true;
      await ready;
      await subscription?.stop();
    },
  };
}
