import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { EventStore, RecordedEvent } from "#application/ports/event-store";
import { AccountStreams } from "#application/identity/account-streams";
import { administratorStreamId } from "#domain/administration/admin-role";
import { type AuditHistory, scanLog, toRow } from "./audit-rows";

export type { AuditHistory, AuditRow } from "./audit-rows";

/**
 * Replays one account's history from the event store (not a read model), in
 * log order (decisions 024, 104): the user stream and its username and email
 * reservations (located by identity's AccountStreams), the account's admin
 * role, every impersonation of it, and its personal access tokens. Details come from an allow-list per
 * event type, so hashes (password, codes, sessions) never reach the output.
 */
@injectable()
export class AccountAudit {
  constructor(
    @inject(TOKENS.EventStore) private readonly events: EventStore,
    @inject(AccountStreams) private readonly accounts: AccountStreams,
  ) {}

  findAccount(query: string): Promise<string | null> {
    return this.accounts.findAccount(query);
  }

  async history(userId: string, searchedUsername?: string): Promise<AuditHistory & { userId: string }> {
    const { userStream, reservationStreams } = await this.accounts.streamsOf(userId, searchedUsername);
    const recorded: RecordedEvent[] = [...(await this.events.readStream(userStream)), ...(await this.events.readStream(administratorStreamId(userId)))];
    for (const stream of reservationStreams) {
      for (const event of await this.events.readStream(stream)) {
        if ((event.data as { userId?: string }).userId === userId) recorded.push(event);
      }
    }
    // Impersonations of the account and its personal access tokens (decision 220) live in streams of their own.
    const related = new Set(
      (
        await scanLog(
          this.events,
          (event) =>
            (event.type === "ImpersonationStarted" && (event.data as { userId?: string }).userId === userId) ||
            (event.type === "AccessTokenCreated" && (event.data as { ownerId?: string }).ownerId === userId),
        )
      ).map((event) => event.streamId),
    );
    for (const stream of related) recorded.push(...(await this.events.readStream(stream)));
    recorded.sort((a, b) => a.position - b.position);
    return { userId, subject: `Account ${userId}`, rows: recorded.map(toRow) };
  }
}
