import type { Page } from "playwright-core";
import { waitUntil } from "./library";

/** Helpers for the workspace journey: documents uploaded through the API, waiting. Accounts come from the library helpers. */
export { PASSWORD, signUpNewUser, waitUntil } from "./library";
export { csrfToken } from "./chat";
import { csrfToken } from "./chat";

/**
 * Uploads a text document the way the upload page does: POST /api/documents
 * (X-CSRF-Token), then PUT the bytes to the returned upload URL. Returns its id.
 */
export async function uploadTextDocument(page: Page, name: string, text: string): Promise<string> {
  const token = await csrfToken(page);
  return page.evaluate(
    async ({ name, text, token }) => {
      const bytes = new TextEncoder().encode(text);
      const registered = await fetch("/api/documents", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": token, Accept: "application/json" },
        body: JSON.stringify({
          document_name: name,
          document_type: "text/plain",
          document_size: bytes.byteLength,
          page_count: 1,
          media_type: "document",
          document_source: "file",
          embedding_data: null,
          ocr: "false",
          rag_type: "",
        }),
      });
      if (!registered.ok) throw new Error(`register ${name}: ${registered.status} ${await registered.text()}`);
      const body = (await registered.json()) as { url: string; document_id: string; user_id: string };
      const put = await fetch(body.url, {
        method: "PUT",
        headers: { "Content-Type": "text/plain", "x-amz-meta-document_id": body.document_id, "x-amz-meta-user_id": body.user_id },
        body: bytes,
      });
      if (!put.ok) throw new Error(`upload ${name}: ${put.status} ${await put.text()}`);
      return body.document_id;
    },
    { name, text, token },
  );
}

/** Polls GET /api/documents until every id is ACTIVE. */
export async function waitForActive(page: Page, ids: string[], timeoutMs = 60_000): Promise<void> {
  await waitUntil(
    async () => {
      const statuses = await page.evaluate(async () => {
        const response = await fetch("/api/documents?limit=100", { headers: { Accept: "application/json" } });
        const body = (await response.json()) as { documents: { document_id: string; status: string; failure_reason: string | null }[] };
        return body.documents.map((d) => ({ id: d.document_id, status: d.status, reason: d.failure_reason }));
      });
      const mine = statuses.filter((s) => ids.includes(s.id));
      const failed = mine.find((s) => s.status === "FAILED");
      if (failed) throw new Error(`Document failed: ${failed.reason}`);
      return mine.length === ids.length && mine.every((s) => s.status === "ACTIVE");
    },
    `documents ${ids.join(", ")} Active`,
    timeoutMs,
    500,
  );
}

export const toast = (page: Page, text: string | RegExp) => page.getByTestId("toast").filter({ hasText: text }).first();
