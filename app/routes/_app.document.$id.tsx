import { Button, Callout, DataList, Flex, Heading, Link as RadixLink, Text } from "@radix-ui/themes";
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRevalidator, useSearchParams } from "@remix-run/react";
import { useEffect } from "react";
import { AlertIcon, ChevronLeftIcon, ExternalIcon, FileIcon, SpeakerIcon, StopIcon, VideoIcon } from "#app/components/icons";
import { throwAsPageError } from "#app/components/library/api.server";
import { canPreview, downloadUrl, inlineUrl, toLibraryDocument } from "#app/components/library/document-view";
import { DownloadIcon } from "#app/components/icons";
import { PdfPages } from "#app/components/library/file-preview";
import { formatDate, formatSize, formatTime, SOURCE_LABELS, statusDisplay } from "#app/components/library/format";
import libraryStyles from "#app/components/library/library.css";
import { StatusBadge } from "#app/components/library/status-badge";
import { TranscriptPlayer } from "#app/components/viewer/transcript-player";
import { useReadAloud } from "#app/components/chat/read-aloud";
import type { BreadcrumbHandle } from "#app/components/shell/breadcrumbs";
import { isDomainError } from "#domain/shared/domain-error";
import { recordViewWhileImpersonating } from "#app/components/administration/record-view.server";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: libraryStyles }];
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.document.name ?? "Document"} | DocuChat` }];
export const handle: BreadcrumbHandle = { breadcrumb: { section: "My Documents", page: "Document", sectionTo: "/history/documents" } };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { libraryQueries } = await getServices();
  let document;
  try {
    document = await libraryQueries.getDocument(user.id, params.id ?? "");
  } catch (error) {
    throwAsPageError(error);
  }
  // Is the original stored (links without a file have none)?
  let hasFile = false;
  try {
    await libraryQueries.describeSource(user.id, document.id);
    hasFile = true;
  } catch (error) {
    if (!isDomainError(error)) throw error;
  }
  await recordViewWhileImpersonating(request, user, "document", document.id, document.name);
  const pages = document.status === "ACTIVE" ? await libraryQueries.pages(user.id, document.id) : [];
  // A recording's transcript, with times, for the player (decision 143).
  const transcript = document.kind === "audio" ? pages.flatMap((p) => p.segments ?? []) : null;
  // What the read-aloud control reads: the document's text from the start (a long one in parts, up to this much).
  const readable = pages
    .map((p) => (p.segments ? p.segments.map((s) => s.text).join(" ") : p.text))
    .join("\n")
    .slice(0, READ_ALOUD_CHARS);
  return { document: toLibraryDocument(document), hasFile, transcript, readable };
}

const POLL_MS = 5000;
/** About ten minutes of speech: the read-aloud control reads a document's opening, not a whole book. */
const READ_ALOUD_CHARS = 9000;

export default function DocumentDetailPage() {
  const { document: d, hasFile, transcript, readable } = useLoaderData<typeof loader>();
  // A citation link from outside the workspace (the public API, MCP) opens the document at its page: /document/<id>?page=N.
  const citedPage = Number(useSearchParams()[0].get("page")) || 1;
  const speech = useReadAloud("en-US");
  const tone = statusDisplay(d.status);
  const revalidator = useRevalidator();
  const previewable = hasFile && canPreview(d);

  // While it is being prepared, refresh the status.
  useEffect(() => {
    if (!tone.inProgress) return;
    const timer = window.setInterval(() => revalidator.revalidate(), POLL_MS);
    return () => window.clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tone.inProgress]);

  return (
    <div className="dc-lib-page">
      <Link to="/history/documents" className="dc-back-link">
        <ChevronLeftIcon size={16} /> Back to My Documents
      </Link>
      <header className="dc-lib-page__header">
        <Heading as="h1" size={{ initial: "5", sm: "7" }} className="dc-break">
          {d.name}
        </Heading>
      </header>

      <div className="dc-detail">
        <section className="dc-lib-card dc-viewer" aria-label="Document viewer">
          {d.source === "youtube_link" && d.sourceUrl ? (
            <Callout.Root color="gray" variant="surface" mb="3">
              <Callout.Icon>
                <VideoIcon size={16} />
              </Callout.Icon>
              <Callout.Text>
                This document is the transcript of a video.{" "}
                <RadixLink href={d.sourceUrl} target="_blank" rel="noopener noreferrer">
                  Watch it on YouTube <ExternalIcon size={12} />
                </RadixLink>
              </Callout.Text>
            </Callout.Root>
          ) : null}
          {transcript && transcript.length > 0 ? (
            <div data-testid="document-transcript">
              <TranscriptPlayer documentId={d.id} documentName={d.name} segments={transcript} highlighted={null} fontSize="15px" />
            </div>
          ) : previewable && d.kind === "pdf" ? (
            <PdfPages
              name={d.name}
              maxPages={30}
              firstPage={citedPage}
              className="dc-viewer__pages"
              load={async () => {
                const response = await fetch(inlineUrl(d.id), { credentials: "same-origin" });
                if (!response.ok) throw new Error(`Failed to fetch the file: ${response.statusText || response.status}`);
                return response.arrayBuffer();
              }}
            />
          ) : previewable ? (
            <iframe
              src={inlineUrl(d.id)}
              title={`Viewer: ${d.name}`}
              className={`dc-viewer__frame${d.kind === "txt" ? " dc-viewer__frame--text" : ""}`}
              data-testid="viewer-frame"
            />
          ) : (
            <div className="dc-empty dc-viewer__empty">
              <FileIcon size={36} />
              <Text size="3" weight="medium">
                {tone.inProgress ? "The document is being prepared…" : "A preview is not available for this document."}
              </Text>
              <Text size="2" color="gray">
                {hasFile ? "Download it to open it on your device." : d.sourceUrl ? "It was read from its link." : ""}
              </Text>
              {d.sourceUrl && d.source !== "youtube_link" ? (
                <RadixLink href={d.sourceUrl} target="_blank" rel="noopener noreferrer" size="2" className="dc-break">
                  {d.sourceUrl}
                </RadixLink>
              ) : null}
            </div>
          )}
        </section>

        <aside className="dc-lib-card dc-details" aria-labelledby="details-heading">
          <Heading as="h2" size="4" id="details-heading" mb="3">
            Details
          </Heading>
          <DataList.Root orientation={{ initial: "vertical", sm: "horizontal" }} size="2">
            <DataList.Item>
              <DataList.Label minWidth="96px">Name</DataList.Label>
              <DataList.Value className="dc-break">{d.name}</DataList.Value>
            </DataList.Item>
            <DataList.Item>
              <DataList.Label minWidth="96px">ID</DataList.Label>
              <DataList.Value>
                <Text size="1" className="dc-mono dc-break">
                  {d.id}
                </Text>
              </DataList.Value>
            </DataList.Item>
            <DataList.Item>
              <DataList.Label minWidth="96px">Status</DataList.Label>
              <DataList.Value>
                <StatusBadge status={d.status} reason={d.failureReason} showRaw />
              </DataList.Value>
            </DataList.Item>
            <DataList.Item>
              <DataList.Label minWidth="96px">Date</DataList.Label>
              <DataList.Value>{formatDate(d.createdAt)}</DataList.Value>
            </DataList.Item>
            <DataList.Item>
              <DataList.Label minWidth="96px">Time</DataList.Label>
              <DataList.Value>{formatTime(d.createdAt)}</DataList.Value>
            </DataList.Item>
            <DataList.Item>
              <DataList.Label minWidth="96px">Page Count</DataList.Label>
              <DataList.Value data-testid="page-count">{d.pageCount > 0 ? d.pageCount : "Not available"}</DataList.Value>
            </DataList.Item>
            <DataList.Item>
              <DataList.Label minWidth="96px">Source</DataList.Label>
              <DataList.Value>{SOURCE_LABELS[d.source] ?? d.source}</DataList.Value>
            </DataList.Item>
            {d.size > 0 ? (
              <DataList.Item>
                <DataList.Label minWidth="96px">Size</DataList.Label>
                <DataList.Value>{formatSize(d.size)}</DataList.Value>
              </DataList.Item>
            ) : null}
            {d.readingNotes.length > 0 ? (
              <DataList.Item>
                <DataList.Label minWidth="96px">Text</DataList.Label>
                <DataList.Value data-testid="reading-notes">{d.readingNotes.join(". ")}.</DataList.Value>
              </DataList.Item>
            ) : null}
          </DataList.Root>

          {d.status === "FAILED" && d.failureReason ? (
            <Callout.Root color="red" mt="4" size="1" role="status">
              <Callout.Icon>
                <AlertIcon size={16} />
              </Callout.Icon>
              <Callout.Text>{d.failureReason}</Callout.Text>
            </Callout.Root>
          ) : null}
          {d.warnings.some((w) => !d.readingNotes.includes(w)) ? (
            <Callout.Root color="amber" mt="3" size="1">
              <Callout.Icon>
                <AlertIcon size={16} />
              </Callout.Icon>
              <Callout.Text>{d.warnings.filter((w) => !d.readingNotes.includes(w)).join(" ")}</Callout.Text>
            </Callout.Root>
          ) : null}

          <Flex mt="5" direction="column" gap="2">
            {readable ? (
              <Button
                size="3"
                variant="soft"
                onClick={() => (speech.state === "idle" ? speech.play(readable) : speech.stop())}
                aria-pressed={speech.state !== "idle"}
                data-testid="document-read-aloud"
                data-state={speech.state}
              >
                {speech.state === "idle" ? <SpeakerIcon /> : <StopIcon />} {speech.state === "idle" ? "Read aloud" : speech.state === "loading" ? "Preparing speech… (stop)" : "Stop reading"}
              </Button>
            ) : null}
            {speech.error ? (
              <Text size="2" color="red" role="alert" data-testid="speech-error">
                {speech.error}
              </Text>
            ) : null}
            {hasFile ? (
              <Button asChild size="3">
                <a href={downloadUrl(d.id)} download data-testid="download-document">
                  <DownloadIcon /> Download Document
                </a>
              </Button>
            ) : (
              <Text size="2" color="gray" data-testid="no-download">
                Download URL not available.
              </Text>
            )}
          </Flex>
        </aside>
      </div>
    </div>
  );
}
