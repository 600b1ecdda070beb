import type { RecordedEvent } from "#application/ports/event-store";
import type { Projector } from "#application/ports/projection";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { readEvent } from "#domain/shared/event-schemas";
import { adminRoleAggregate, impersonationAggregate } from "#domain/administration/administration-events";
import type { EndCause, ViewedKind } from "#domain/administration/impersonation";

/** One impersonation as the history table and My Account show it. Rebuilt from `impersonation-*` streams. */
export interface ImpersonationReadModel {
  id: string;
  adminId: string;
  userId: string;
  /** null once the user's personal data was erased (purge). */
  userName: string | null;
  reason: string | null;
  status: "ACTIVE" | "ENDED";
  startedAt: string;
  deadline: string;
  endedAt: string | null;
  endedBy: EndCause | null;
  views: ViewedReadModel[];
}

export interface ViewedReadModel {
  kind: ViewedKind;
  resourceId: string;
  title: string | null;
  viewedAt: string;
}

/** An admin, and who made them one. Rebuilt from `administrator-*` streams. */
export interface AdminReadModel {
  id: string;
  grantedBy: string;
  grantedAt: string;
}

export const IMPERSONATIONS = "administration_impersonations";
export const ADMINS = "administration_admins";

export const impersonationsProjector: Projector = {
  name: "administration.impersonations",
  collections: [IMPERSONATIONS, ADMINS],
  async setup(store: ReadModelStore) {
    await store.collection<ImpersonationReadModel>(IMPERSONATIONS).ensureIndex(["adminId"]);
    await store.collection<ImpersonationReadModel>(IMPERSONATIONS).ensureIndex(["userId"]);
  },
  async handle(recorded: RecordedEvent, store: ReadModelStore) {
    const rows = store.collection<ImpersonationReadModel>(IMPERSONATIONS);
    if (recorded.streamId.startsWith("administrator-")) {
      const event = readEvent(adminRoleAggregate.events, recorded);
      const admins = store.collection<AdminReadModel>(ADMINS);
      if (event.type === "AdminRoleGranted") await admins.upsert({ id: event.data.userId, grantedBy: event.data.grantedBy, grantedAt: event.data.grantedAt });
      else await admins.delete(event.data.userId);
      return;
    }
    // A purged account: what named the person goes from the read model too (ARCHITECTURE §7).
    if (recorded.streamId.startsWith("user-") && recorded.type === "AccountPurgeStarted") {
      const userId = recorded.streamId.slice("user-".length);
      for (const row of await rows.find({ userId })) {
        await rows.patch(row.id, { userName: null, reason: null, views: row.views.map((view) => ({ ...view, title: null })) });
      }
      return;
    }
    if (!recorded.streamId.startsWith("impersonation-")) return;
    const event = readEvent(impersonationAggregate.events, recorded);
    const id = recorded.streamId.slice("impersonation-".length);
    switch (event.type) {
      case "ImpersonationStarted":
        await rows.upsert({
          id,
          adminId: event.data.adminId,
          userId: event.data.userId,
          userName: event.data.personal?.userName ?? null,
          reason: event.data.personal?.reason ?? null,
          status: "ACTIVE",
          startedAt: event.data.startedAt,
          deadline: event.data.deadline,
          endedAt: null,
          endedBy: null,
          views: [],
        });
        return;
      case "ImpersonationViewed": {
        const row = await rows.get(id);
        // Idempotent: a replayed view is not listed twice.
        if (!row || row.views.some((view) => view.viewedAt === event.data.viewedAt && view.resourceId === event.data.resourceId)) return;
        const view = { kind: event.data.kind, resourceId: event.data.resourceId, title: event.data.personal?.title ?? null, viewedAt: event.data.viewedAt };
        await rows.patch(id, { views: [...row.views, view] });
        return;
      }
      case "ImpersonationEnded":
        await rows.patch(id, { status: "ENDED", endedAt: event.data.endedAt, endedBy: event.data.cause });
        return;
    }
  },
};
