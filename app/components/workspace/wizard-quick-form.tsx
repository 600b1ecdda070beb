import { Button, Callout, Flex, Heading, Text, TextField } from "@radix-ui/themes";
import { Form, Link } from "@remix-run/react";
import type { ReactNode, RefObject } from "react";
import { FileIcon } from "#app/components/icons";
import type { PickableDocument } from "./types";

/** Quick Workspace: only a name, launched with the ready files chosen in My Documents. */
export function QuickWorkspaceForm({
  headingRef,
  hidden,
  quickDocs,
  chosenCount,
  switchMode,
  submitting,
  limitReached,
  quickName,
  setQuickName,
  quickError,
  setQuickError,
}: {
  headingRef: RefObject<HTMLHeadingElement>;
  /** CSRF and chat preference fields the form posts. */
  hidden: ReactNode;
  quickDocs: PickableDocument[];
  /** Files chosen, including those left out (in progress or failed). */
  chosenCount: number;
  switchMode: (toQuick: boolean) => void;
  submitting: boolean;
  limitReached: boolean;
  /** Kept by the page, so switching to the full wizard and back keeps what was typed. */
  quickName: string;
  setQuickName: (name: string) => void;
  quickError: string | null;
  setQuickError: (error: string | null) => void;
}) {
  return (
    <section className="dc-ws-card dc-ws-quick" aria-labelledby="quick-heading">
      <Heading as="h2" size="4" id="quick-heading" ref={headingRef} tabIndex={-1}>
        Name your workspace
      </Heading>
      <Form
        method="post"
        className="dc-ws-quick__form"
        onSubmit={(event) => {
          if (!quickName.trim()) {
            event.preventDefault();
            setQuickError("This field is required");
          }
        }}
      >
        {hidden}
        <input type="hidden" name="type" value="Conversation" />
        {quickDocs.map((d) => (
          <input key={d.id} type="hidden" name="documentId" value={d.id} />
        ))}
        <div className="dc-ws-field">
          <Text as="label" htmlFor="quick-name" size="2" weight="medium">
            Workspace name
          </Text>
          <TextField.Root
            id="quick-name"
            name="name"
            size="3"
            value={quickName}
            onChange={(e) => {
              setQuickName(e.currentTarget.value);
              setQuickError(null);
            }}
            aria-invalid={quickError ? true : undefined}
            aria-describedby={quickError ? "quick-name-error" : undefined}
          />
          {quickError ? (
            <Text size="1" color="red" id="quick-name-error" role="alert">
              {quickError}
            </Text>
          ) : null}
        </div>
        <div>
          <Text as="p" size="2" weight="medium" mb="2">
            Files ({quickDocs.length})
          </Text>
          {quickDocs.length === 0 ? (
            <Callout.Root color="gray" variant="surface">
              <Callout.Text>
                No ready files were chosen. Pick files in{" "}
                <Link to="/history/documents" className="dc-ws-link">
                  My Documents
                </Link>{" "}
                or{" "}
                <button type="button" className="dc-ws-link dc-ws-link--button" onClick={() => switchMode(false)}>
                  use the full wizard
                </button>
                .
              </Callout.Text>
            </Callout.Root>
          ) : (
            <ul className="dc-ws-review__files" data-testid="quick-files">
              {quickDocs.map((d) => (
                <li key={d.id}>
                  <FileIcon size={16} />
                  <span className="dc-ws-ellipsis">{d.name}</span>
                </li>
              ))}
            </ul>
          )}
          {chosenCount > quickDocs.length ? (
            <Text as="p" size="1" color="gray" mt="2">
              {chosenCount - quickDocs.length} in-progress or failed file(s) were left out.
            </Text>
          ) : null}
        </div>
        <Flex justify="end">
          <Button type="submit" size="3" disabled={quickDocs.length === 0 || limitReached} loading={submitting}>
            Save and Launch
          </Button>
        </Flex>
      </Form>
    </section>
  );
}
