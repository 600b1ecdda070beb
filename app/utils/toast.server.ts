import { redirect } from "@remix-run/node";
import { z } from "zod";
import { getCookies } from "./cookies.server";

export const toastSchema = z.object({
  type: z.enum(["success", "error", "info"]),
  message: z.string().min(1).max(500),
});
export type Toast = z.infer<typeof toastSchema>;

/** A one-shot toast carried by a cookie across the redirect, shown by the root loader. */
export async function toastHeader(toast: Toast): Promise<string> {
  const { toast: cookie } = await getCookies();
  return cookie.serialize(toast);
}

export async function redirectWithToast(url: string, toast: Toast, init: ResponseInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await toastHeader(toast));
  return redirect(url, { ...init, headers });
}

export async function getToast(request: Request): Promise<{ toast: Toast | null; headers: Headers }> {
  const { toast: cookie } = await getCookies();
  const parsed = toastSchema.safeParse(await cookie.parse(request.headers.get("Cookie")));
  const headers = new Headers();
  if (parsed.success) headers.append("Set-Cookie", await cookie.serialize("", { maxAge: 0 }));
  return { toast: parsed.success ? parsed.data : null, headers };
}
