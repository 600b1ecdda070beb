import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { linkAction } from "#app/components/library/link-action.server";
import { LINK_PAGES, LinkUpload } from "#app/components/library/link-upload";
import libraryStyles from "#app/components/library/library.css";
import { UploadLayout } from "#app/components/library/upload-layout";
import type { BreadcrumbHandle } from "#app/components/shell/breadcrumbs";
import { requireUser } from "#app/utils/session.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: libraryStyles }];
export const meta: MetaFunction = () => [{ title: "Upload a Website | DocuChat" }];
export const handle: BreadcrumbHandle = { breadcrumb: { section: "Upload", page: "Website" } };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return null;
}

export function action(args: ActionFunctionArgs) {
  return linkAction(args, LINK_PAGES.Website.source, LINK_PAGES.Website.success);
}

export default function UploadWebsitePage() {
  return (
    <UploadLayout title="Upload a Website" description="Read a web page, and optionally the pages it links to, into one document.">
      <LinkUpload type="Website" />
    </UploadLayout>
  );
}
