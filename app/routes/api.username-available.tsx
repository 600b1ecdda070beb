import type { LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { usernameSchema } from "#domain/identity/credentials";
import { isDomainError } from "#domain/shared/domain-error";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";

/** `available: null` means the check could not run (invalid name or rate limited); the submit still checks. */
export type UsernameAvailability = { username: string; available: boolean | null; message?: string };

/** GET /api/username-available?username=… — the sign-up form's on-blur check (spec 000 §5). */
export async function loader({ request }: LoaderFunctionArgs) {
  const raw = new URL(request.url).searchParams.get("username") ?? "";
  const parsed = usernameSchema.safeParse(raw);
  const noStore = { "Cache-Control": "no-store" };
  if (!parsed.success) {
    return data<UsernameAvailability>(
      { username: raw.trim(), available: null, message: parsed.error.issues[0]?.message },
      { status: 400, headers: noStore },
    );
  }
  try {
    const services = await getServices();
    const available = await services.identity.isUsernameAvailable(parsed.data, await getRequestContext(request));
    return data<UsernameAvailability>(
      { username: parsed.data, available, message: available ? undefined : "Username already present" },
      { headers: noStore },
    );
  } catch (error) {
    if (isDomainError(error)) {
      return data<UsernameAvailability>(
        { username: parsed.data, available: null, message: error.message },
        { status: error.code === "RATE_LIMITED" ? 429 : 400, headers: noStore },
      );
    }
    throw error;
  }
}
