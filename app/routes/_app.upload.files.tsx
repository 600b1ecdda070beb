import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { FileUpload } from "#app/components/library/file-upload";
import libraryStyles from "#app/components/library/library.css";
import { UploadLayout } from "#app/components/library/upload-layout";
import type { BreadcrumbHandle } from "#app/components/shell/breadcrumbs";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: libraryStyles }];
export const meta: MetaFunction = () => [{ title: "Upload Files | DocuChat" }];
export const handle: BreadcrumbHandle = { breadcrumb: { section: "Upload", page: "Files" } };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { library } = await getServices();
  const { used, limit, remaining } = await library.remainingPages(user.id);
  return { used, limit, remaining };
}

export default function UploadFilesPage() {
  const { remaining } = useLoaderData<typeof loader>();
  return (
    <UploadLayout title="Upload Files" description="Add documents to your library. Each one is read, indexed and ready to chat with in moments.">
      <FileUpload remainingPages={remaining} />
    </UploadLayout>
  );
}
