import { json, type ActionFunctionArgs } from "@remix-run/node";
import { validateCsrf } from "#app/utils/csrf.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { getCurrentUser, PENDING_DELETE_MESSAGE } from "#app/utils/session.server";
import { PICTURE_MAX_BYTES } from "#domain/identity/profile";
import { isDomainError } from "#domain/shared/domain-error";

export type PictureUploadResult = { ok: true; pictureUrl: string | null } | { ok: false; error: string };

/**
 * Receives the cropped 250×250 PNG (multipart field `picture`). The server
 * checks the bytes themselves (signature, dimensions, size), not the name or
 * the declared type; the picture is stored under a generated key.
 */
/** The picture and the multipart envelope around it. */
export const bodyLimit = PICTURE_MAX_BYTES + 64 * 1024;

export async function action({ request }: ActionFunctionArgs) {
  const formData = await request.formData();
  await validateCsrf(formData, request);
  const user = await getCurrentUser(request);
  if (!user) return json<PictureUploadResult>({ ok: false, error: "Log in to unlock more features!" }, { status: 401 });
  if (user.status === "PENDING_DELETE") return json<PictureUploadResult>({ ok: false, error: PENDING_DELETE_MESSAGE }, { status: 403 });
  const file = formData.get("picture");
  if (!(file instanceof Blob)) return json<PictureUploadResult>({ ok: false, error: "Please choose an image." }, { status: 400 });
  const bytes = new Uint8Array(await file.arrayBuffer());
  const { profiles, identityQueries } = await getServices();
  try {
    await profiles.changePicture(user.id, bytes, getRequestContext(request, { actorId: user.id }));
  } catch (error) {
    if (!isDomainError(error)) throw error;
    const status = error.code === "ACCOUNT_PENDING_DELETE" ? 403 : 400;
    return json<PictureUploadResult>({ ok: false, error: error.message }, { status });
  }
  const updated = await identityQueries.currentUser(user.id, null);
  return json<PictureUploadResult>({ ok: true, pictureUrl: updated?.pictureUrl ?? null });
}

export async function loader() {
  return new Response("Not Found", { status: 404 });
}
