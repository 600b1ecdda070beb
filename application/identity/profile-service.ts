import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { BlobStore } from "#application/ports/blob-store";
import type { Clock } from "#application/ports/clock";
import type { EventStore } from "#application/ports/event-store";
import type { IdGenerator } from "#application/ports/ids";
import type { ProjectionWaiter } from "#application/ports/projection";
import type { AppSettings } from "#application/shared/app-settings";
import { Aggregate } from "#application/shared/aggregate";
import { refuseDuringImpersonation } from "#application/shared/impersonation-guard";
import { parseInput } from "#application/shared/parse";
import { type RequestContext, requestMetadata } from "#application/shared/request-context";
import { DomainError } from "#domain/shared/domain-error";
import { checkCroppedPicture, onboardingSchema, profileSchema } from "#domain/identity/profile";
import { type UserCommand, type UserEvent, type UserState, userDecider } from "#domain/identity/user";
import { userAggregate } from "#domain/identity/user-events";

/** Where a user's profile pictures live; a fresh key per upload, never the file's name. */
export const avatarBlobKey = (userId: string, pictureId: string) => `avatars/${userId}/${pictureId}.png`;

/** Onboarding, profile edits and the profile picture (spec 000 §2, 001 §2/§4/§5). */
@injectable()
export class ProfileService {
  constructor(
    @inject(TOKENS.EventStore) private readonly events: EventStore,
    @inject(TOKENS.Ids) private readonly ids: IdGenerator,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.BlobStore) private readonly blobs: BlobStore,
    @inject(TOKENS.ProjectionWaiter) private readonly projections: ProjectionWaiter,
    @inject(TOKENS.Config) private readonly settings: AppSettings,
  ) {
    this.users = new Aggregate(events, ids, userAggregate);
  }

  private readonly users: Aggregate<UserCommand, UserEvent, UserState>;

  /**
   * The onboarding form. The email field is shown read-only; it is validated
   * (spec 000 §5) but never changes the account's email.
   */
  async completeOnboarding(userId: string, input: unknown, ctx: RequestContext): Promise<void> {
    const form = parseInput(onboardingSchema(this.settings.isProduction), input);
    const { firstName, lastName, occupation, language } = form;
    await this.execute(userId, { type: "CompleteOnboarding", profile: { firstName, lastName, occupation, language }, now: this.clock.now() }, ctx);
  }

  async updateProfile(userId: string, input: unknown, ctx: RequestContext): Promise<void> {
    const form = parseInput(profileSchema, input);
    await this.execute(userId, { type: "UpdateProfile", profile: form, now: this.clock.now() }, ctx);
  }

  /** Stores the cropped 250×250 PNG under a generated key and records it; the previous picture is removed. */
  async changePicture(userId: string, bytes: Uint8Array, ctx: RequestContext): Promise<{ pictureKey: string }> {
    const check = checkCroppedPicture(bytes);
    if (!check.ok) throw new DomainError("INVALID_PICTURE", check.message, "picture");
    const pictureKey = avatarBlobKey(userId, this.ids.next());
    // Refuse before storing anything when the account may not change (pending deletion, purged).
    const result = await this.execute(userId, { type: "ChangeProfilePicture", pictureKey, now: this.clock.now() }, ctx, async () => {
      await this.blobs.put(pictureKey, Buffer.from(bytes), {
        contentType: "image/png",
        metadata: { user_id: userId, kind: "avatar" },
      });
    });
    const changed = result.events.find((e) => e.type === "ProfilePictureChanged");
    if (changed?.type === "ProfilePictureChanged" && changed.data.previousKey) {
      await this.blobs.delete(changed.data.previousKey).catch(() => undefined);
    }
    return { pictureKey };
  }

  private async execute(userId: string, command: UserCommand, ctx: RequestContext, beforeAppend?: () => Promise<void>) {
    const loaded = beforeAppend ? await this.users.load(userId) : undefined;
    if (beforeAppend && loaded) {
      // Run the decider once without appending, so a refused command stores no blob.
      refuseDuringImpersonation(ctx);
      userDecider.decide(command, loaded.state);
      await beforeAppend();
    }
    const result = await this.users.handle(userId, command, { metadata: requestMetadata(ctx, userId), loaded });
    await this.projections.waitForPosition(result.position);
    return result;
  }
}
