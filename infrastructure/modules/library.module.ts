import { SpeechToText } from "#application/library/speech-to-text";
import { defineContextModule } from "#application/shared/context-module";
import { IngestionActivities } from "#application/library/ingestion-activities";
import { LibraryQueries } from "#application/library/library-queries";
import { LibraryService } from "#application/library/library-service";
import { LinkLookup } from "#application/library/link-lookup";
import { IngestionStarter } from "#application/library/library-reactors";
import { PageRelease, UploadDeadlineStarter, uploadDeadlineActivities } from "#application/library/upload-reactions";
import { documentsProjector } from "#projections/library/documents.projector";
import { ingestionWorkflow } from "#workflows/ingestion";
import { uploadDeadlineWorkflow } from "#workflows/upload-deadline";

/** Documents: upload and links, ingestion into searchable chunks (the worked example of docs/decisions/050). */
export const libraryModule = defineContextModule({
  name: "library",
  streamCategories: ["document"],
  services: [LibraryService, LibraryQueries, IngestionActivities, LinkLookup, SpeechToText],
  projectors: [documentsProjector],
  reactors: [IngestionStarter, UploadDeadlineStarter, PageRelease],
  workflows: [ingestionWorkflow, uploadDeadlineWorkflow],
  activities: (resolve) => ({ ...resolve(IngestionActivities).registry(), ...uploadDeadlineActivities(resolve(LibraryService)) }),
});
