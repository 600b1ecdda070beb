import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { linkAction } from "#app/components/library/link-action.server";
import { LINK_PAGES, LinkUpload } from "#app/components/library/link-upload";
import libraryStyles from "#app/components/library/library.css";
import { UploadLayout } from "#app/components/library/upload-layout";
import type { BreadcrumbHandle } from "#app/components/shell/breadcrumbs";
import { requireUser } from "#app/utils/session.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: libraryStyles }];
export const meta: MetaFunction = () => [{ title: "Add a Video | DocuChat" }];
export const handle: BreadcrumbHandle = { breadcrumb: { section: "Upload", page: "Video" } };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return null;
}

export function action(args: ActionFunctionArgs) {
  return linkAction(args, LINK_PAGES.YouTube.source, LINK_PAGES.YouTube.success);
}

export default function UploadYouTubePage() {
  return (
    <UploadLayout title="Add a Video" description="Turn a YouTube video's transcript into a document you can chat with.">
      <LinkUpload type="YouTube" />
    </UploadLayout>
  );
}
