import { Button, Card, Flex, IconButton, Spinner, Text, TextField } from "@radix-ui/themes";
import { Link } from "@remix-run/react";
import { FileIcon, PlusIcon } from "#app/components/icons";
import { DocumentMenu } from "./document-menu";
import type { LibraryDocument } from "./document-view";
import { formatDateTime, formatPageCount, formatSize, SOURCE_LABELS } from "./format";
import { StatusBadge } from "./status-badge";
import { ReadingNotes } from "./reading-notes";
import { HistorySwitch } from "./history-switch";
import { useInfiniteDocuments } from "./use-infinite-documents";

const PAGE = 10;

/**
 * Mobile and tablet (< 1025 px): cards with search and infinite scroll — the
 * next page loads when the window is within 10 px of the bottom for 200 ms.
 */
/** Both lists are rendered and CSS shows one; only the visible one may load pages as the window scrolls. */
const isDesktop = () => typeof window !== "undefined" && window.matchMedia("(min-width: 1025px)").matches;

export function DocumentCards({
  first,
  total,
  q,
  onDelete,
}: {
  first: LibraryDocument[];
  total: number;
  q: string;
  onDelete: (document: LibraryDocument) => void;
}) {
  const { items, hasMore, loading, loadMore, search, setSearch } = useInfiniteDocuments({ first, total, q, pageSize: PAGE, active: !isDesktop() });

  return (
    <div className="dc-doc-cards">
      <HistorySwitch current="documents" />
      <Flex gap="2" align="center" mb="3" mt="3">
        <TextField.Root
          className="dc-grow"
          type="search"
          size="3"
          placeholder="Search documents"
          aria-label="Search documents"
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
        />
        <IconButton asChild size="3" aria-label="Upload a document">
          <Link to="/upload">
            <PlusIcon size={20} />
          </Link>
        </IconButton>
      </Flex>
      {items.length === 0 ? (
        <div className="dc-empty dc-lib-card">
          <FileIcon size={28} />
          <Text size="2" color="gray">
            No documents found
          </Text>
        </div>
      ) : (
        <ul className="dc-doc-cards__list" aria-label="Documents">
          {items.map((d) => (
            <li key={d.id}>
              <Card size="2" className="dc-doc-card" data-testid="document-card">
                <Flex justify="between" align="start" gap="2">
                  <Link to={`/document/${d.id}`} className="dc-doc-card__name">
                    {d.name}
                  </Link>
                  <DocumentMenu document={d} onDelete={onDelete} />
                </Flex>
                <Flex gap="2" align="center" wrap="wrap" mt="2">
                  <StatusBadge status={d.status} reason={d.failureReason} />
                  <Text size="1" color="gray">
                    {SOURCE_LABELS[d.source] ?? d.source} · {formatPageCount(d.pageCount)} · {formatSize(d.size)}
                  </Text>
                </Flex>
                <ReadingNotes notes={d.readingNotes} mt="1" />
                <Text as="div" size="1" color="gray" mt="1">
                  {formatDateTime(d.createdAt)}
                </Text>
              </Card>
            </li>
          ))}
        </ul>
      )}
      {hasMore ? (
        <Flex justify="center" mt="3">
          <Button variant="soft" onClick={() => void loadMore()} disabled={loading}>
            {loading ? <Spinner /> : null}
            Load more
          </Button>
        </Flex>
      ) : null}
    </div>
  );
}
