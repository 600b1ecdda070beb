import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { Outlet } from "@remix-run/react";
import { requireUser } from "#app/utils/session.server";

/** /upload → /upload/files; the upload screens render inside. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const url = new URL(request.url);
  if (url.pathname.replace(/\/+$/, "") === "/upload") throw redirect("/upload/files");
  return null;
}

export default function UploadRoute() {
  return <Outlet />;
}
