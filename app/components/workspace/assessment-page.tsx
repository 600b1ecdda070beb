import { Badge, Button, Callout, Flex, Heading, Text } from "@radix-ui/themes";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { AlertIcon, ClockIcon, FileIcon } from "#app/components/icons";
import { CsrfInput } from "#app/components/csrf-input";
import type { AssessmentView } from "#application/workspace/assessment-service";
import { ResumePicker } from "./resume-picker";

/** What the /interview loader hands the page. */
export type AssessmentPageView = {
  state: AssessmentView["phase"];
  interview: AssessmentView["assessment"];
  offer: string | null;
  serverNow: string;
  /** The first page of the user's ready documents, to choose the resume from, and how many there are. */
  documents: { id: string; name: string }[];
  documentTotal: number;
};

export type AssessmentActionResult = { ok: false; message: string; needsUpload?: boolean };

const QUESTION =
  "Using the resume you upload as context, explain one project you led end to end: the problem, the decisions you made and why, what went wrong, and what you would do differently today.";

function useRemaining(endsAt: string | null, serverNow: string) {
  // Server and browser clocks may differ: count down by the server's clock offset.
  const [offset] = useState(() => Date.parse(serverNow) - Date.now());
  const [now, setNow] = useState(() => Date.parse(serverNow));
  useEffect(() => {
    if (!endsAt) return;
    setNow(Date.now() + offset);
    const timer = window.setInterval(() => setNow(Date.now() + offset), 1000);
    return () => window.clearInterval(timer);
  }, [endsAt, offset]);
  return endsAt ? Math.max(0, Date.parse(endsAt) - now) : 0;
}

const formatDeadline = (iso: string) =>
  new Date(iso).toLocaleString("en-GB", { day: "numeric", month: "long", year: "numeric", hour: "2-digit", minute: "2-digit" });

export function AssessmentPage({ view, actionData }: { view: AssessmentPageView; actionData: AssessmentActionResult | undefined }) {
  const { state, interview, offer, serverNow, documents, documentTotal } = view;
  const navigation = useNavigation();
  const remaining = useRemaining(state === "running" ? (interview?.endsAt ?? null) : null, serverNow);
  const ended = state === "ended" || (state === "running" && remaining <= 0);
  const minutes = Math.floor(remaining / 60_000);
  const seconds = Math.floor((remaining % 60_000) / 1000);
  // The newest ready document until the candidate picks another.
  const [resume, setResume] = useState(documents[0] ?? null);

  return (
    <div className="dc-ws-page dc-ws-interview">
      <header className="dc-ws-page__header">
        <div>
          <Heading as="h1" size={{ initial: "6", sm: "7" }}>
            Candidate Assessment
          </Heading>
          <Text as="p" size="3" color="gray" mt="1">
            A short, timed pre-screen held in a DocuChat workspace.
          </Text>
        </div>
      </header>

      <section className="dc-ws-card dc-ws-interview__card" aria-labelledby="intro-heading">
        <Heading as="h2" size="4" id="intro-heading">
          Before you begin
        </Heading>
        <Text as="p" size="3">
          You will answer <strong>one question</strong> in <strong>60 minutes</strong>. When you start, a workspace with your resume opens;
          the timer starts then and keeps running on our server even if you close the page. You can come back and continue until the time is up.
        </Text>
        <Flex gap="3" wrap="wrap">
          <Badge size="2" variant="soft" radius="full">
            <ClockIcon size={14} /> 60 minutes
          </Badge>
          <Badge size="2" variant="soft" radius="full" color="gray">
            1 question
          </Badge>
          <Badge size="2" variant="soft" radius="full" color={offer && state === "ended" && !interview ? "red" : "gray"}>
            {offer ? `Open until ${formatDeadline(offer)}` : "No closing date"}
          </Badge>
        </Flex>

        <div className="dc-ws-interview__question">
          <Text as="p" size="2" weight="bold" color="gray">
            Question 1 of 1
          </Text>
          <Text as="p" size="4" weight="medium">
            {QUESTION}
          </Text>
        </div>

        {actionData && !actionData.ok ? (
          <Callout.Root color="red" variant="surface" role="alert">
            <Callout.Icon>
              <AlertIcon size={16} />
            </Callout.Icon>
            <Callout.Text>
              {actionData.message}{" "}
              {actionData.needsUpload ? (
                <Link to="/upload/files" className="dc-ws-link">
                  Upload your resume
                </Link>
              ) : null}
            </Callout.Text>
          </Callout.Root>
        ) : null}

        {state === "new" && documentTotal === 0 ? (
          <Callout.Root color="amber" variant="surface">
            <Callout.Icon>
              <FileIcon size={16} />
            </Callout.Icon>
            <Callout.Text>
              You need to upload your resume before starting.{" "}
              <Link to="/upload/files" className="dc-ws-link">
                Upload your resume
              </Link>{" "}
              and come back once it shows as Active.
            </Callout.Text>
          </Callout.Root>
        ) : null}

        {ended ? (
          <Button size="3" disabled data-testid="interview-button">
            Ended
          </Button>
        ) : state === "running" && interview ? (
          <Button asChild size="3" data-testid="interview-button">
            <Link to={`/workspace/${interview.workspaceId}`}>
              Continue {minutes}m {seconds}s
            </Link>
          </Button>
        ) : (
          <Form method="post" className="dc-ws-interview__start">
            <CsrfInput />
            {documentTotal > 0 ? <ResumePicker first={documents} total={documentTotal} chosen={resume} onChoose={setResume} /> : null}
            <Button size="3" type="submit" disabled={!resume} loading={navigation.state === "submitting"} data-testid="interview-button">
              Start Interview
            </Button>
          </Form>
        )}
      </section>
    </div>
  );
}
