import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { getCurrentUser } from "#app/utils/session.server";

export type SessionState = { signedIn: boolean };

/** GET /api/session: whether this browser is signed in (cross-tab sync asks after another tab changed it). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getCurrentUser(request);
  return data<SessionState>({ signedIn: user !== null }, { headers: { "Cache-Control": "no-store" } });
}
