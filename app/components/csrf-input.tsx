import { useRouteLoaderData } from "@remix-run/react";

/** Hidden CSRF field for every form; the token comes from the root loader. */
export function CsrfInput() {
  const data = useRouteLoaderData<{ csrfToken?: string }>("root");
  return <input type="hidden" name="csrf" value={data?.csrfToken ?? ""} />;
}
