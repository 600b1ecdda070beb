import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { AudioUpload } from "#app/components/library/audio-upload";
import libraryStyles from "#app/components/library/library.css";
import { UploadLayout } from "#app/components/library/upload-layout";
import type { BreadcrumbHandle } from "#app/components/shell/breadcrumbs";
import { requireUser } from "#app/utils/session.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: libraryStyles }];
export const meta: MetaFunction = () => [{ title: "Upload Audio | DocuChat" }];
export const handle: BreadcrumbHandle = { breadcrumb: { section: "Upload", page: "Audio" } };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return null;
}

export default function UploadAudioPage() {
  return (
    <UploadLayout title="Upload Audio" description="Record a lecture or a note, or upload an audio file, and chat with its transcript.">
      <AudioUpload />
    </UploadLayout>
  );
}
