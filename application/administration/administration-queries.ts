import { inject, injectable } from "inversify";
import { z } from "zod";
import { TOKENS } from "#application/tokens";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { parseInput } from "#application/shared/parse";
import { searchUsers, userById } from "#projections/identity/users.queries";
import {
  type ImpersonationReadModel,
  impersonationHistory,
  impersonationsOfUser,
  isAdmin,
} from "#projections/administration/impersonations.queries";

/** Search starts at 3 or more characters (spec 001 §5). */
export const USER_SEARCH_MIN_LENGTH = 3;

/**
 * The admin's user search in the shape of spec 001 §7 POST /profiles/filter:
 * `logic` OR of `contains` filters on email, auth id (username) and name.
 * The page sends one text for all three fields.
 */
export const userFilterSchema = z.object({
  logic: z.literal("OR").default("OR"),
  filters: z
    .array(
      z.object({
        field: z.enum(["email", "auth_id", "name"]),
        data_type: z.literal("string").default("string"),
        type: z.literal("contains"),
        value: z.string().trim().max(100),
      }),
    )
    .min(1)
    .max(3),
});

export interface FoundUser {
  id: string;
  auth_id: string;
  name: string;
  email_id: string;
  status: "ACTIVE" | "PENDING_DELETE";
  isAdmin: boolean;
}

export interface HistoryRow {
  id: string;
  userId: string;
  userName: string;
  status: "ACTIVE" | "ENDED";
  startedAt: string;
  deadline: string;
  endedAt: string | null;
  endedBy: ImpersonationReadModel["endedBy"];
  adminId: string;
  adminName: string;
  reason: string;
  views: { kind: string; title: string; viewedAt: string }[];
}

const ERASED_NAME = "(erased)";

/** The administration context's queries (admins, user search, impersonation history). */
@injectable()
export class AdministrationQueries {
  constructor(@inject(TOKENS.ReadModelStore) private readonly store: ReadModelStore) {}

  isAdmin(userId: string): Promise<boolean> {
    return isAdmin(this.store, userId);
  }

  /** Users matching any filter (3+ characters each; shorter filters are ignored, none left answers nothing). */
  async searchUsers(input: unknown): Promise<FoundUser[]> {
    const { filters } = parseInput(userFilterSchema, input);
    const texts = [...new Set(filters.map((filter) => filter.value.toLowerCase()).filter((value) => value.length >= USER_SEARCH_MIN_LENGTH))];
    const found = new Map<string, FoundUser>();
    for (const text of texts) {
      for (const user of await searchUsers(this.store, text)) {
        if (user.status === "") continue;
        found.set(user.id, {
          id: user.id,
          auth_id: user.username,
          name: [user.firstName, user.lastName].filter(Boolean).join(" "),
          email_id: user.email,
          status: user.status,
          isAdmin: await isAdmin(this.store, user.id),
        });
      }
    }
    return [...found.values()].slice(0, 20);
  }

  /** The Impersonation History table (spec 001 §2), newest first. */
  async history(): Promise<HistoryRow[]> {
    return Promise.all((await impersonationHistory(this.store)).map((row) => this.historyRow(row)));
  }

  /** Who looked at this user's account, when, why and what (My Account). */
  async impersonationsOf(userId: string): Promise<HistoryRow[]> {
    return Promise.all((await impersonationsOfUser(this.store, userId)).map((row) => this.historyRow(row)));
  }

  private async historyRow(row: ImpersonationReadModel): Promise<HistoryRow> {
    const admin = await userById(this.store, row.adminId);
    return {
      id: row.id,
      userId: row.userId,
      userName: row.userName ?? ERASED_NAME,
      status: row.status,
      startedAt: row.startedAt,
      deadline: row.deadline,
      endedAt: row.endedAt,
      endedBy: row.endedBy,
      adminId: row.adminId,
      adminName: admin ? admin.username : ERASED_NAME,
      reason: row.reason ?? ERASED_NAME,
      views: row.views.map((view) => ({ kind: view.kind, title: view.title ?? ERASED_NAME, viewedAt: view.viewedAt })),
    };
  }
}
