import type { Projector } from "#application/ports/projection";
import { usersProjector } from "./identity/users.projector";
import { documentsProjector } from "./library/documents.projector";

/** Every projector of every context; the runner and `projections:rebuild` use this list. */
export const allProjectors: Projector[] = [usersProjector, documentsProjector];
