import { Button, Callout, Heading, Text } from "@radix-ui/themes";
import { useHydrated } from "#app/components/use-hydrated";
import { data, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState } from "react";
import { AlertIcon } from "#app/components/icons";
import type { BreadcrumbHandle } from "#app/components/shell/breadcrumbs";
import { useToast } from "#app/components/toast";
import { CsrfInput } from "#app/components/csrf-input";
import {
  ChatPreferenceFields,
  fromPreferenceValues,
  preferenceOptions,
  startingPreferenceValues,
  type ChatPreferenceValues,
} from "#app/components/workspace/chat-preferences";
import { FilePicker, MAX_PICKED } from "#app/components/workspace/file-picker";
import { fetchDocuments } from "#app/components/library/use-infinite-documents";
import { useInfiniteList } from "#app/components/use-infinite-list";
import { pickState, quickWorkspaceName, type PickableDocument } from "#app/components/workspace/types";
import { DetailsStep, validateDetails, type DetailErrors, type WorkspaceDetails } from "#app/components/workspace/wizard-details-step";
import { QuickWorkspaceForm } from "#app/components/workspace/wizard-quick-form";
import { ReviewStep } from "#app/components/workspace/wizard-review-step";
import { WIZARD_STEPS, WizardSteps } from "#app/components/workspace/wizard-steps";
import workspaceStyles from "#app/components/workspace/workspace.css";
import { isDomainError } from "#domain/shared/domain-error";
import { validateCsrf } from "#app/utils/csrf.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { requireUser, requireWritableUser } from "#app/utils/session.server";
import { formRefusalStatus } from "#app/utils/api-errors.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: workspaceStyles }];
export const meta: MetaFunction = () => [{ title: "Create Workspace | DocuChat" }];
export const handle: BreadcrumbHandle = { breadcrumb: { section: "Workspaces", page: "Create Workspace", sectionTo: "/history/workspaces" } };

const STEPS = WIZARD_STEPS;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { libraryQueries, workspaces, modelCatalog } = await getServices();
  const url = new URL(request.url);
  const requested = (url.searchParams.get("documentIds") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .slice(0, 50);
  // The file step fetches the user's files a page at a time; only the pre-picked ones come with the page.
  const [prePicked, allowance, models, defaults] = await Promise.all([
    libraryQueries.readableDocuments(user.id, requested),
    workspaces.remainingWorkspaces(user.id),
    modelCatalog.availableFor(user.id),
    modelCatalog.chatPreferenceFor(user.id),
  ]);
  const options = preferenceOptions(models);
  return {
    // Only the caller's own documents can be pre-picked (an id from elsewhere is silently dropped).
    initialDocuments: prePicked
      .filter((d) => d.ownerId === user.id)
      .map((d): PickableDocument => ({ id: d.id, name: d.name, status: d.status, kind: d.kind, pageCount: d.pageCount, createdAt: d.createdAt })),
    quick: url.searchParams.get("quick") === "1",
    allowance,
    preferenceOptions: options,
    // The pickers start on the user's defaults from Chat Settings.
    startingPreferences: startingPreferenceValues(defaults, options),
  };
}

type ActionResult = { ok: false; message: string; field?: string };

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireWritableUser(request);
  const formData = await request.formData();
  await validateCsrf(formData, request);
  const text = (name: string) => {
    const v = formData.get(name);
    return typeof v === "string" ? v : undefined;
  };
  const input = {
    name: text("name") ?? "",
    description: text("description") ?? "",
    type: text("type") || undefined,
    documentIds: formData.getAll("documentId").filter((v): v is string => typeof v === "string" && v.length > 0),
    // A form without the pickers (e.g. a scripted POST) leaves the choice to the service: the user's defaults.
    chatPreference: formData.has("prefText") ? fromPreferenceValues({ text: text("prefText"), image: text("prefImage"), embedding: text("prefEmbedding") }) : undefined,
  };
  try {
    const { workspaces } = await getServices();
    const { workspaceId } = await workspaces.create(user.id, input, getRequestContext(request, { actorId: user.id }));
    return redirect(`/workspace/${workspaceId}/launch`);
  } catch (error) {
    if (isDomainError(error)) {
      // Another user's document is answered as a missing one (ARCHITECTURE §8).
      const status = error.code === "DOCUMENT_NOT_FOUND" ? 404 : formRefusalStatus(error);
      return data<ActionResult>({ ok: false, message: error.message, field: error.field }, { status });
    }
    throw error;
  }
}

export default function CreateWorkspacePage() {
  const hydrated = useHydrated();
  const { initialDocuments, quick: quickParam, allowance, preferenceOptions: modelOptions, startingPreferences } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const toast = useToast();
  const [, setParams] = useSearchParams();
  const submitting = navigation.state !== "idle" && navigation.formMethod?.toLowerCase() === "post";

  const [quick, setQuick] = useState(quickParam);
  const [step, setStep] = useState(0);
  const [details, setDetails] = useState<WorkspaceDetails>({ name: "", description: "", type: "Conversation" });
  const [errors, setErrors] = useState<DetailErrors>({});
  const [prefs, setPrefs] = useState<ChatPreferenceValues>(startingPreferences);
  const [chosenDocs, setChosenDocs] = useState<PickableDocument[]>(() => initialDocuments.slice(0, MAX_PICKED));
  const [quickName, setQuickName] = useState(() => quickWorkspaceName());
  const [quickError, setQuickError] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => setQuick(quickParam), [quickParam]);
  useEffect(() => {
    if (actionData && !actionData.ok) toast.push({ type: "error", message: actionData.message });
  }, [actionData, toast]);
  // Move focus to the new step's heading so screen-reader users hear where they are.
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    headingRef.current?.focus();
  }, [step, quick]);

  // Only files that can be attached are launched with (in-progress or failed ones are dropped).
  const pickedDocs = chosenDocs.filter((d) => pickState(d.status).pickable);
  const quickDocs = pickedDocs;
  const limitReached = allowance.limit !== null && allowance.used >= allowance.limit;

  const toggle = (document: PickableDocument, on: boolean) =>
    setChosenDocs((current) => (on ? [...current.filter((d) => d.id !== document.id), document] : current.filter((d) => d.id !== document.id)));
  const onLimit = () => toast.push({ type: "error", message: "Can not upload more than 10 files" });

  const next = () => {
    if (step === 0) {
      const found = validateDetails(details);
      setErrors(found);
      if (Object.keys(found).length > 0) return;
    }
    setStep((s) => Math.min(STEPS.length - 1, s + 1));
  };
  const previous = () => setStep((s) => Math.max(0, s - 1));

  const switchMode = (toQuick: boolean) => {
    setQuick(toQuick);
    setStep(0);
    setParams(
      (current) => {
        const nextParams = new URLSearchParams(current);
        if (toQuick) nextParams.set("quick", "1");
        else nextParams.delete("quick");
        if (chosenDocs.length) nextParams.set("documentIds", chosenDocs.map((d) => d.id).join(","));
        else nextParams.delete("documentIds");
        return nextParams;
      },
      { replace: true, preventScrollReset: true },
    );
  };

  const hidden = (
    <>
      <CsrfInput />
      <input type="hidden" name="prefText" value={prefs.text} />
      <input type="hidden" name="prefImage" value={prefs.image} />
      <input type="hidden" name="prefEmbedding" value={prefs.embedding} />
    </>
  );

  return (
    <div className="dc-ws-page" data-ws-hydrated={hydrated}>
      <header className="dc-ws-page__header">
        <div>
          <Heading as="h1" size={{ initial: "6", sm: "7" }}>
            {quick ? "Quick Workspace" : "Create a New Workspace"}
          </Heading>
          <Text as="p" size="3" color="gray" mt="1">
            {quick ? "Name it and start chatting with the files you chose." : "Group your documents into a workspace and chat with them."}
          </Text>
        </div>
        <button type="button" className="dc-ws-link dc-ws-link--button" onClick={() => switchMode(!quick)} data-testid="toggle-quick">
          {quick ? "Customise every step instead" : "Create a Quick Workspace instead"}
        </button>
      </header>

      {limitReached ? (
        <Callout.Root color="amber" variant="surface">
          <Callout.Icon>
            <AlertIcon size={16} />
          </Callout.Icon>
          <Callout.Text>
            You have created {allowance.used} of {allowance.limit} workspaces this month, the limit of your plan.
          </Callout.Text>
        </Callout.Root>
      ) : null}

      {quick ? (
        <QuickWorkspaceForm
          headingRef={headingRef}
          hidden={hidden}
          quickDocs={quickDocs}
          chosenCount={chosenDocs.length}
          switchMode={switchMode}
          submitting={submitting}
          limitReached={limitReached}
          quickName={quickName}
          setQuickName={setQuickName}
          quickError={quickError}
          setQuickError={setQuickError}
        />
      ) : (
        <div className="dc-ws-wizard">
          <WizardSteps step={step} />

          <section className="dc-ws-card dc-ws-wizard__main" aria-labelledby="step-heading">
            <Text size="2" color="gray" className="dc-ws-wizard__counter">
              Step {step + 1} of {STEPS.length} · {STEPS[step].label}
            </Text>
            <Heading as="h2" size="5" id="step-heading" ref={headingRef} tabIndex={-1} className="dc-ws-wizard__heading">
              {STEPS[step].header}
            </Heading>

            <div className="dc-ws-wizard__body">
              {step === 0 ? <DetailsStep details={details} setDetails={setDetails} errors={errors} setErrors={setErrors} next={next} /> : null}

              {step === 1 ? <ChatPreferenceFields values={prefs} onChange={setPrefs} options={modelOptions} /> : null}

              {step === 2 ? <WizardFiles picked={pickedDocs.map((d) => d.id)} onToggle={toggle} onLimit={onLimit} /> : null}

              {step === 3 ? <ReviewStep details={details} prefs={prefs} modelOptions={modelOptions} pickedDocs={pickedDocs} /> : null}
            </div>

            <Form method="post" className="dc-ws-wizard__nav">
              {hidden}
              <input type="hidden" name="name" value={details.name} />
              <input type="hidden" name="description" value={details.description} />
              <input type="hidden" name="type" value={details.type} />
              {pickedDocs.map((d) => (
                <input key={d.id} type="hidden" name="documentId" value={d.id} />
              ))}
              <Button type="button" variant="soft" color="gray" size="3" onClick={previous} disabled={step === 0}>
                Previous
              </Button>
              {step < STEPS.length - 1 ? (
                step === 0 ? (
                  <Button key="next-details" type="submit" form="details-form" size="3">
                    Next
                  </Button>
                ) : (
                  <Button key="next" type="button" size="3" onClick={next}>
                    Next
                  </Button>
                )
              ) : (
                // A distinct key: the clicked Next must not turn into this submit button mid-click.
                <Button key="launch" type="submit" size="3" disabled={pickedDocs.length === 0 || limitReached} loading={submitting}>
                  Save and Launch
                </Button>
              )}
            </Form>
          </section>
        </div>
      )}
    </div>
  );
}

/** Files fetched per page on the file step. */
const FILES_PAGE = 20;

/** The file step: the user's files a page at a time, searched on the server, scrolled in the picker's box. */
function WizardFiles({ picked, onToggle, onLimit }: { picked: string[]; onToggle: (document: PickableDocument, on: boolean) => void; onLimit: () => void }) {
  const listRef = useRef<HTMLUListElement>(null);
  const { items, loading, search, setSearch } = useInfiniteList({ pageSize: FILES_PAGE, fetchPage: fetchDocuments, scrollRoot: listRef });
  const toggle = (id: string, on: boolean) => {
    const document = items.find((d) => d.id === id);
    if (document) onToggle(document, on);
  };
  return <FilePicker documents={items} picked={picked} onToggle={toggle} onLimit={onLimit} server={{ search, onSearch: setSearch, loading, listRef }} />;
}
