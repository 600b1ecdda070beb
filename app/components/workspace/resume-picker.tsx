import { RadioGroup, Text, TextField } from "@radix-ui/themes";
import { useRef } from "react";
import { ScrollingListBox } from "#app/components/scrolling-list-box";
import { fetchReadyDocuments } from "#app/components/library/use-infinite-documents";
import { useInfiniteList } from "#app/components/use-infinite-list";

type Named = { id: string; name: string };

/** Ready documents per page of the resume list: the loader's first, then one more each time the box nears its bottom. */
export const RESUME_PAGE = 20;

/**
 * The assessment's resume: one of the user's ready documents, listed a page at
 * a time in a scrolling box and searched on the server. The choice is kept by
 * id (a hidden field), so a search that hides it does not lose it.
 */
export function ResumePicker({ first, total, chosen, onChoose }: { first: Named[]; total: number; chosen: Named | null; onChoose: (document: Named) => void }) {
  const boxRef = useRef<HTMLDivElement>(null);
  const { items, loading, search, setSearch } = useInfiniteList<Named>({ first, total, pageSize: RESUME_PAGE, fetchPage: fetchReadyDocuments, scrollRoot: boxRef });
  return (
    <div className="dc-ws-field dc-ws-resume">
      <Text size="2" weight="medium" id="resume-label">
        Your resume
      </Text>
      <TextField.Root
        type="search"
        placeholder="Search files by name"
        aria-label="Search your ready files by name"
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        className="dc-ws-select"
        data-testid="resume-search"
      />
      <ScrollingListBox
        boxRef={boxRef}
        loading={loading}
        isEmpty={items.length === 0}
        empty={
          <Text size="2" color="gray">
            No matching files found.
          </Text>
        }
        className="dc-ws-resume__box"
        data-testid="resume-list"
      >
        <RadioGroup.Root
          aria-labelledby="resume-label"
          value={chosen?.id ?? ""}
          onValueChange={(id) => {
            const document = items.find((d) => d.id === id);
            if (document) onChoose({ id: document.id, name: document.name });
          }}
        >
          {items.map((d) => (
            <RadioGroup.Item key={d.id} value={d.id} className="dc-ws-resume__item" data-testid="resume-option">
              <span className="dc-ws-ellipsis" title={d.name}>
                {d.name}
              </span>
            </RadioGroup.Item>
          ))}
        </RadioGroup.Root>
      </ScrollingListBox>
      <input type="hidden" name="documentId" value={chosen?.id ?? ""} />
      <Text size="2" color="gray" aria-live="polite" data-testid="resume-chosen">
        {chosen ? <>Chosen: {chosen.name}</> : "Choose your resume above."}
      </Text>
    </div>
  );
}
