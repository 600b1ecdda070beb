import type { Projector } from "#application/ports/projection";
import { usersProjector } from "./identity/users.projector";
import { keysetsProjector } from "./identity/keysets.projector";
import { chatLayoutsProjector } from "./identity/chat-layouts.projector";
import { documentsProjector } from "./library/documents.projector";
import { workspacesProjector } from "./workspace/workspaces.projector";
import { conversationsProjector } from "./conversation/conversations.projector";
import { assessmentsProjector } from "./workspace/assessments.projector";

/** Every projector of every context; the runner and `projections:rebuild` use this list. */
export const allProjectors: Projector[] = [usersProjector, documentsProjector, workspacesProjector, conversationsProjector, keysetsProjector, chatLayoutsProjector, assessmentsProjector];
