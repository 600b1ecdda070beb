import { Badge, Button, Callout, Flex, Heading, Select, Text } from "@radix-ui/themes";
import { useHydrated } from "#app/components/use-hydrated";
import { data, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { AlertIcon, ClockIcon, FileIcon } from "#app/components/icons";
import type { BreadcrumbHandle } from "#app/components/shell/breadcrumbs";
import { CsrfInput } from "#app/components/csrf-input";
import workspaceStyles from "#app/components/workspace/workspace.css";
import { isDomainError } from "#domain/shared/domain-error";
import { validateCsrf } from "#app/utils/csrf.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { requireUser, requireWritableUser } from "#app/utils/session.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: workspaceStyles }];
export const meta: MetaFunction = () => [{ title: "Assessment | DocuChat" }];
export const handle: BreadcrumbHandle = { breadcrumb: { section: "Assessment" } };

const QUESTION =
  "Using the resume you upload as context, explain one project you led end to end: the problem, the decisions you made and why, what went wrong, and what you would do differently today.";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { assessments, libraryQueries } = await getServices();
  const [view, { documents }] = await Promise.all([assessments.view(user.id), libraryQueries.listDocuments(user.id, { limit: 500 })]);
  return {
    state: view.phase,
    interview: view.assessment,
    offer: view.offerClosesAt,
    serverNow: view.serverNow,
    documents: documents.filter((d) => d.status === "ACTIVE").map((d) => ({ id: d.id, name: d.name })),
  };
}

type ActionResult = { ok: false; message: string; needsUpload?: boolean };

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireWritableUser(request);
  const formData = await request.formData();
  await validateCsrf(formData, request);
  const { assessments } = await getServices();
  try {
    const documentId = formData.get("documentId");
    const { workspaceId, launching } = await assessments.start(
      user.id,
      { documentId: typeof documentId === "string" ? documentId : undefined },
      getRequestContext(request, { actorId: user.id }),
    );
    return redirect(`/workspace/${workspaceId}${launching ? "/launch" : ""}`);
  } catch (error) {
    if (!isDomainError(error)) throw error;
    if (error.code === "ASSESSMENT_ENDED") return data<ActionResult>({ ok: false, message: error.message }, { status: 409 });
    return data<ActionResult>({ ok: false, message: error.message, ...(error.code === "ASSESSMENT_NEEDS_RESUME" ? { needsUpload: true } : {}) }, { status: 400 });
  }
}

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

export default function InterviewPage() {
  const hydrated = useHydrated();
  const { state, interview, offer, serverNow, documents } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const remaining = useRemaining(state === "running" ? (interview?.endsAt ?? null) : null, serverNow);
  const ended = state === "ended" || (state === "running" && remaining <= 0);
  const minutes = Math.floor(remaining / 60_000);
  const seconds = Math.floor((remaining % 60_000) / 1000);
  const [documentId, setDocumentId] = useState(documents[0]?.id ?? "");

  return (
    <div className="dc-ws-page dc-ws-interview" data-ws-hydrated={hydrated}>
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

        {state === "new" && documents.length === 0 ? (
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
            {documents.length > 0 ? (
              <div className="dc-ws-field">
                <Text as="label" size="2" weight="medium" id="resume-label">
                  Your resume
                </Text>
                <Select.Root name="documentId" value={documentId} onValueChange={setDocumentId}>
                  <Select.Trigger aria-labelledby="resume-label" className="dc-ws-select" />
                  <Select.Content position="popper">
                    {documents.map((d) => (
                      <Select.Item key={d.id} value={d.id}>
                        {d.name}
                      </Select.Item>
                    ))}
                  </Select.Content>
                </Select.Root>
              </div>
            ) : null}
            <Button size="3" type="submit" disabled={documents.length === 0} loading={navigation.state === "submitting"} data-testid="interview-button">
              Start Interview
            </Button>
          </Form>
        )}
      </section>
    </div>
  );
}
