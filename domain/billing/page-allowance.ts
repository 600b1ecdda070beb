import type { Decider, DomainEvent } from "#domain/shared/decider";
import { DomainError } from "#domain/shared/domain-error";

/**
 * A user's page allowance for one month (stream `page-allowance-<user>-<yyyy-mm>`):
 * the pages each document holds, as extraction measured them. One stream per
 * user and month, written with expected versions, so two documents ingesting
 * at the same time at the edge of the limit cannot both pass (docs/decisions/090).
 * A document that fails or is removed before it became ready releases its pages;
 * a ready document keeps them, even when deleted later.
 */

/** The spec's message when pages would exceed what is left of the month's allowance (null when they fit). */
export function pageAllowanceError(requestedPages: number, usedPages: number, limit: number): string | null {
  const remaining = Math.max(0, limit - usedPages);
  return requestedPages > remaining
    ? `Upload exceeds the total available page limit. You have ${remaining} pages remaining.`
    : null;
}

export type PageAllowanceEvent =
  | DomainEvent<"PagesReserved", { documentId: string; pages: number; limit: number | null; reservedAt: string }>
  | DomainEvent<"PagesReleased", { documentId: string; releasedAt: string }>;

export type PageAllowanceCommand =
  /** Holds `pages` for the document (replacing what it held), if they fit under `limit` (null: the plan has none). */
  | { type: "ReservePages"; documentId: string; pages: number; limit: number | null; now: Date }
  | { type: "ReleasePages"; documentId: string; now: Date };

export interface PageAllowanceState {
  /** Pages held, by document id. */
  held: Record<string, number>;
}

export const pagesUsed = (state: PageAllowanceState, except?: string) =>
  Object.entries(state.held).reduce((sum, [documentId, pages]) => (documentId === except ? sum : sum + pages), 0);

export function decide(command: PageAllowanceCommand, state: PageAllowanceState): PageAllowanceEvent[] {
  switch (command.type) {
    case "ReservePages": {
      if (state.held[command.documentId] === command.pages) return [];
      const error = command.limit === null ? null : pageAllowanceError(command.pages, pagesUsed(state, command.documentId), command.limit);
      if (error) throw new DomainError("PAGE_LIMIT", error);
      return [
        {
          type: "PagesReserved",
          data: { documentId: command.documentId, pages: command.pages, limit: command.limit, reservedAt: command.now.toISOString() },
        },
      ];
    }
    case "ReleasePages": {
      if (!(command.documentId in state.held)) return [];
      return [{ type: "PagesReleased", data: { documentId: command.documentId, releasedAt: command.now.toISOString() } }];
    }
  }
}

export function evolve(state: PageAllowanceState, event: PageAllowanceEvent): PageAllowanceState {
  switch (event.type) {
    case "PagesReserved":
      return { held: { ...state.held, [event.data.documentId]: event.data.pages } };
    case "PagesReleased": {
      const { [event.data.documentId]: _released, ...held } = state.held;
      return { held };
    }
  }
}

export const pageAllowanceDecider: Decider<PageAllowanceCommand, PageAllowanceEvent, PageAllowanceState> = {
  initialState: () => ({ held: {} }),
  decide,
  evolve,
};

/** The month an allowance stream covers, as "yyyy-mm" (UTC). */
export const allowanceMonth = (date: Date) => `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, "0")}`;

/** Id of one user's allowance for one month; the stream is `page-allowance-<id>`. */
export const pageAllowanceId = (userId: string, month: string) => `${userId}-${month}`;
export const pageAllowanceStreamId = (id: string) => `page-allowance-${id}`;
