import { data, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import type { BreadcrumbHandle } from "#app/components/shell/breadcrumbs";
import { AssessmentPage, type AssessmentActionResult } from "#app/components/workspace/assessment-page";
import { RESUME_PAGE } from "#app/components/workspace/resume-picker";
import workspaceStyles from "#app/components/workspace/workspace.css";
import { isDomainError } from "#domain/shared/domain-error";
import { validateCsrf } from "#app/utils/csrf.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { requireUser, requireWritableUser } from "#app/utils/session.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: workspaceStyles }];
export const meta: MetaFunction = () => [{ title: "Assessment | DocuChat" }];
export const handle: BreadcrumbHandle = { breadcrumb: { section: "Assessment" } };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { assessments, libraryQueries } = await getServices();
  // The first page of ready documents to choose the resume from; the picker fetches more as it scrolls or searches.
  const [view, { documents, total }] = await Promise.all([assessments.view(user.id), libraryQueries.listDocuments(user.id, { status: "ACTIVE", limit: RESUME_PAGE })]);
  return {
    state: view.phase,
    interview: view.assessment,
    offer: view.offerClosesAt,
    serverNow: view.serverNow,
    documents: documents.map((d) => ({ id: d.id, name: d.name })),
    documentTotal: total,
  };
}

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
      getRequestContext(request, { actorId: user.id, impersonatorId: user.impersonatorId }),
    );
    return redirect(`/workspace/${workspaceId}${launching ? "/launch" : ""}`);
  } catch (error) {
    if (!isDomainError(error)) throw error;
    if (error.code === "ASSESSMENT_ENDED") return data<AssessmentActionResult>({ ok: false, message: error.message }, { status: 409 });
    return data<AssessmentActionResult>({ ok: false, message: error.message, ...(error.code === "ASSESSMENT_NEEDS_RESUME" ? { needsUpload: true } : {}) }, { status: 400 });
  }
}

export default function InterviewRoute() {
  return <AssessmentPage view={useLoaderData<typeof loader>()} actionData={useActionData<typeof action>()} />;
}
