import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { linkAction } from "#app/components/library/link-action.server";
import { LINK_PAGES, LinkUpload } from "#app/components/library/link-upload";
import libraryStyles from "#app/components/library/library.css";
import { UploadLayout } from "#app/components/library/upload-layout";
import type { BreadcrumbHandle } from "#app/components/shell/breadcrumbs";
import { requireUser } from "#app/utils/session.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: libraryStyles }];
export const meta: MetaFunction = () => [{ title: "Upload a Document Link | DocuChat" }];
export const handle: BreadcrumbHandle = { breadcrumb: { section: "Upload", page: "URLs" } };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return null;
}

export function action(args: ActionFunctionArgs) {
  return linkAction(args, LINK_PAGES.DocumentURL.source, LINK_PAGES.DocumentURL.success);
}

export default function UploadDocumentURLPage() {
  return (
    <UploadLayout title="Upload a Document Link" description="Point to a PDF, Word, text or Excel file on the web and we fetch it for you.">
      <LinkUpload type="DocumentURL" />
    </UploadLayout>
  );
}
