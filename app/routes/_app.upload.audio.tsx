import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { AudioUpload } from "#app/components/library/audio-upload";
import libraryStyles from "#app/components/library/library.css";
import { UploadLayout } from "#app/components/library/upload-layout";
import type { BreadcrumbHandle } from "#app/components/shell/breadcrumbs";
import { requireUser } from "#app/utils/session.server";
import { getServices } from "#app/utils/services.server";
import { useLoaderData } from "@remix-run/react";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: libraryStyles }];
export const meta: MetaFunction = () => [{ title: "Upload Audio | DocuChat" }];
export const handle: BreadcrumbHandle = { breadcrumb: { section: "Upload", page: "Audio" } };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { modelCatalog, keysets } = await getServices();
  // Only what the picker shows: keyset ids, names and transcription model names (never a key).
  const transcription = (await modelCatalog.availableFor(user.id)).map((k) => ({ keysetId: k.keysetId, keysetName: k.keysetName, models: k.transcriptionModels ?? [] }));
  // The user's default (Chat Settings), when it is still one of the choices; else offline.
  const chosen = (await keysets.defaults(user.id)).transcription;
  const offered = transcription.some((k) => k.keysetId === chosen.keysetId && k.models.some((m) => m.id === chosen.model));
  return { transcription, initial: offered ? { keyset_id: chosen.keysetId, model: chosen.model } : null };
}

export default function UploadAudioPage() {
  return (
    <UploadLayout title="Upload Audio" description="Record a lecture or a note, or upload an audio file, and chat with its transcript.">
      <AudioUpload {...useLoaderData<typeof loader>()} />
    </UploadLayout>
  );
}
