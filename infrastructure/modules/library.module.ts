import { defineContextModule } from "#application/shared/context-module";
import { IngestionActivities } from "#application/library/ingestion-activities";
import { LibraryQueries } from "#application/library/library-queries";
import { LibraryService } from "#application/library/library-service";
import { IngestionStarter } from "#application/library/library-reactors";
import { documentsProjector } from "#projections/library/documents.projector";
import { ingestionWorkflow } from "#workflows/ingestion";

/** Documents: upload and links, ingestion into searchable chunks (the worked example of docs/decisions/050). */
export const libraryModule = defineContextModule({
  name: "library",
  streamCategories: ["document"],
  services: [LibraryService, LibraryQueries, IngestionActivities],
  projectors: [documentsProjector],
  workflows: [ingestionWorkflow],
  reactors: [IngestionStarter],
  activities: (resolve) => resolve(IngestionActivities).registry(),
});
