import { recordViewWhileImpersonating } from "#app/components/administration/record-view.server";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Zip, ZipPassThrough } from "fflate";
import { throwAsPageError } from "#app/components/library/api.server";
import { safeFileName } from "#app/components/library/download.server";
import { validateCsrf } from "#app/utils/csrf.server";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";

/** Up to this many documents per archive (a selection of a page of My Documents). */
const MAX_ZIP_DOCUMENTS = 100;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  throw new Response("Use POST", { status: 405, headers: { Allow: "POST" } });
}

/**
 * POST /documents/download-zip (form: csrf, id…) — the chosen documents as
 * documents.zip, streamed entry by entry. Every id must be the owner's (404 otherwise).
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const formData = await request.formData();
  await validateCsrf(formData, request);
  const ids = [...new Set(formData.getAll("id").filter((v): v is string => typeof v === "string" && v.length > 0))];
  if (ids.length === 0) throw new Response("Select at least one document.", { status: 400 });
  if (ids.length > MAX_ZIP_DOCUMENTS) throw new Response(`Select at most ${MAX_ZIP_DOCUMENTS} documents.`, { status: 400 });

  const { libraryQueries, logger } = await getServices();
  let documents;
  try {
    documents = await Promise.all(ids.map((id) => libraryQueries.getDocument(user.id, id)));
  } catch (error) {
    throwAsPageError(error);
  }
  for (const document of documents) await recordViewWhileImpersonating(request, user, "document", document.id, document.name);

  const usedNames = new Set<string>();
  const entryName = (name: string) => {
    const base = safeFileName(name);
    let candidate = base;
    for (let n = 2; usedNames.has(candidate.toLowerCase()); n++) {
      const dot = base.lastIndexOf(".");
      candidate = dot > 0 ? `${base.slice(0, dot)} (${n})${base.slice(dot)}` : `${base} (${n})`;
    }
    usedNames.add(candidate.toLowerCase());
    return candidate;
  };

  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const zip = new Zip((error, chunk, final) => {
        if (error) {
          controller.error(error);
          return;
        }
        controller.enqueue(chunk);
        if (final) controller.close();
      });
      try {
        for (const document of documents) {
          let opened;
          try {
            opened = await libraryQueries.openSource(user.id, document.id);
          } catch {
            continue; // link documents without a stored original are left out
          }
          const entry = new ZipPassThrough(entryName(document.name));
          zip.add(entry);
          for await (const part of opened.blob.body) {
            entry.push(part instanceof Uint8Array ? part : Buffer.from(part as string));
          }
          entry.push(new Uint8Array(0), true);
        }
        zip.end();
      } catch (error) {
        logger.error({ err: error }, "zip download failed");
        zip.terminate();
        controller.error(error);
      }
    },
  });

  return new Response(stream, {
    status: 200,
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="documents.zip"`,
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-store",
    },
  });
}
