import { data, type ActionFunctionArgs } from "@remix-run/node";
import { isDomainError } from "#domain/shared/domain-error";
import { validateCsrf } from "#app/utils/csrf.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { requireWritableUser } from "#app/utils/session.server";
import { redirectWithToast } from "#app/utils/toast.server";
import type { LinkActionData } from "./link-upload";
import { formRefusalStatus } from "#app/utils/api-errors.server";

/** The link pages' action: registers the link; without JavaScript it redirects to My Documents with the toast. */
export async function linkAction(
  { request }: ActionFunctionArgs,
  source: "youtube_link" | "website_url" | "document_url",
  success: string,
) {
  const user = await requireWritableUser(request);
  const formData = await request.formData();
  await validateCsrf(formData, request);
  const withJs = formData.get("js") === "1";
  const url = formData.get("url");
  const maxDepth = formData.get("maxDepth");
  try {
    const { library, linkLookup } = await getServices();
    const link = { source, url: typeof url === "string" ? url : "", maxDepth: source === "website_url" ? maxDepth : undefined };
    await linkLookup.check(link);
    await library.registerLink(user.id, link, getRequestContext(request, { actorId: user.id }));
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return data<LinkActionData>({ ok: false, message: error.message, field: error.field }, { status: formRefusalStatus(error) });
  }
  if (!withJs) throw await redirectWithToast("/history/documents", { type: "success", message: success });
  return data<LinkActionData>({ ok: true, message: success });
}
