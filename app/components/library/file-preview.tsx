import { Flex, Spinner, Text } from "@radix-ui/themes";
import { useEffect, useRef, useState } from "react";
import { extensionOf } from "#domain/library/upload-rules";
import { loadPdfjs } from "./pdfjs";

const MAX_PDF_PAGES = 5;
const MAX_TEXT_CHARS = 200_000;

/**
 * Preview of a local file before upload: PDF pages drawn with pdf.js (our CSP
 * allows no blob: frames), images through their object URL, text as text.
 */
export function FilePreview({ file, url }: { file: File; url: string }) {
  const ext = extensionOf(file.name);
  if (ext === "jpg" || ext === "jpeg" || ext === "png") {
    return <img src={url} alt={`Preview of ${file.name}`} className="dc-preview__image" />;
  }
  if (ext === "pdf") return <PdfPages name={file.name} load={() => file.arrayBuffer()} maxPages={MAX_PDF_PAGES} />;
  if (file.type.startsWith("text/") || ["txt", "md", "csv", "json", "xml", "yaml", "yml", "log"].includes(ext) || file.type === "") {
    return <TextPreview file={file} />;
  }
  return (
    <Text as="p" color="gray" size="2">
      A preview is not available for this file type. It will be readable in your documents after upload.
    </Text>
  );
}

function TextPreview({ file }: { file: File }) {
  const [text, setText] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void file
      .slice(0, MAX_TEXT_CHARS)
      .text()
      .then((t) => live && setText(t))
      .catch((error: unknown) => live && setText(`Error reading files: ${error instanceof Error ? error.message : String(error)}`));
    return () => {
      live = false;
    };
  }, [file]);
  if (text === null) return <Spinner />;
  return (
    <pre className="dc-preview__text" tabIndex={0} aria-label={`Text of ${file.name}`}>
      {text}
    </pre>
  );
}

/** PDF pages drawn with pdf.js (works the same in every browser, including phones that cannot show PDFs in frames). */
export function PdfPages({
  name,
  load,
  maxPages,
  firstPage = 1,
  className = "dc-preview__pages",
}: {
  name: string;
  load: () => Promise<ArrayBuffer>;
  maxPages: number;
  /** The page drawn first (a citation's page, `?page=N`); the ones before it are left out. */
  firstPage?: number;
  className?: string;
}) {
  const container = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<{ loading: boolean; error: string | null; pages: number; first: number; last: number }>({ loading: true, error: null, pages: 0, first: 1, last: 0 });
  useEffect(() => {
    let cancelled = false;
    void (async () => {
      try {
        const lib = await loadPdfjs();
        const task = lib.getDocument({ data: new Uint8Array(await load()), isEvalSupported: false });
        const doc = await task.promise;
        const host = container.current;
        if (!host || cancelled) return;
        host.replaceChildren();
        const first = Math.min(Math.max(1, Math.floor(firstPage) || 1), doc.numPages);
        const last = Math.min(doc.numPages, first + maxPages - 1);
        for (let n = first; n <= last && !cancelled; n++) {
          const page = await doc.getPage(n);
          const viewport = page.getViewport({ scale: 1.2 });
          const canvas = document.createElement("canvas");
          canvas.width = viewport.width;
          canvas.height = viewport.height;
          canvas.setAttribute("role", "img");
          canvas.setAttribute("aria-label", `Page ${n} of ${name}`);
          canvas.className = "dc-preview__page";
          host.appendChild(canvas);
          const context = canvas.getContext("2d");
          if (context) await page.render({ canvas, canvasContext: context, viewport }).promise;
        }
        if (!cancelled) setState({ loading: false, error: null, pages: doc.numPages, first, last });
        await task.destroy();
      } catch (error) {
        if (!cancelled) setState({ loading: false, error: `Error loading PDF document: ${error instanceof Error ? error.message : "unknown"}!`, pages: 0, first: 1, last: 0 });
      }
    })();
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [name, firstPage]);
  return (
    <Flex direction="column" gap="2">
      {state.loading ? <Spinner /> : null}
      {state.error ? (
        <Text color="red" size="2" role="alert">
          {state.error}
        </Text>
      ) : null}
      <div ref={container} className={className} tabIndex={0} role="group" aria-label={`Pages of ${name}`} />
      {state.pages > 0 && (state.first > 1 || state.last < state.pages) ? (
        <Text size="1" color="gray">
          {state.first === 1 ? `Showing the first ${state.last} of ${state.pages} pages.` : `Showing pages ${state.first}–${state.last} of ${state.pages}.`} Download the document to read the rest.
        </Text>
      ) : null}
    </Flex>
  );
}
