import { describe, expect, it } from "vitest";
import type { z } from "zod";

/**
 * Purge leaves nothing readable (decision 006, issue 30 item 4): every string
 * an event carries outside `data.personal` (sealed with its subject's key) is
 * either an id or a time, or declared here as words no person chose. A new
 * string field fails this test until it is sealed or declared.
 */
const NOT_PERSONAL: Record<string, string> = {
  "AdminRoleGranted.grantedBy": "an account id, or 'bootstrap'",
  "AnswerCompleted.answeredBy": "the id of the model that answered (decision 190)",
  "AccessTokenUsed.at": "a time",
  "AccessTokenRevoked.at": "a time",
  "AdminRoleRevoked.revokedBy": "an account id",
  "OrderCreated.currency": "an ISO currency code",
  "OrderCreated.checkoutUrl": "the provider's checkout address",
  "OrderPaid.method": "the provider's payment method name",
  "OrderPaid.currency": "an ISO currency code",
  "OrderPaymentFailed.description": "the provider's failure text",
  "UsageReserved.key": "an idempotency key the app makes",
  "UsageReserved.day": "a date",
  "UsageReleased.key": "an idempotency key the app makes",
  "CommunityCreated.name": "the community's, not a person's: it outlives its creator (decision 121)",
  "CommunityCreated.description": "the community's, not a person's (decision 121)",
  "CommunitySettingsChanged.description": "the community's, not a person's (decision 121)",
  "CommunitySettingsChanged.changedBy": "an account id",
  "JoinApproved.approvedBy": "an account id",
  "JoinDeclined.declinedBy": "an account id",
  "MemberAdded.addedBy": "an account id",
  "MemberRoleChanged.changedBy": "an account id",
  "MemberRemoved.removedBy": "an account id",
  "OwnershipHandedOver.from": "an account id",
  "OwnershipHandedOver.to": "an account id",
  "ResourceRemoved.removedBy": "an account id",
  "CommunityArchived.reason": "a sentence the app writes",
  "CommunityDeleted.deletedBy": "an account id",
  "ImageAttached.contentType": "a media type",
  "ImpersonationStarted.deadline": "a time",
  "AnswerStarted.model": "a model name",
  "QuestionAsked.language": "a language name from the app's list",
  "AnswerInterrupted.reason": "a reason the app writes",
  "KeysetAdded.subProvider": "a provider name from the app's list",
  "KeysetAdded.endpoint": "a server address the user configures, not words about them",
  "KeysetAdded.model": "a model name",
  "KeysetAdded.models[]": "model names",
  "KeysetEdited.endpoint": "a server address the user configures, not words about them",
  "KeysetEdited.model": "a model name",
  "KeysetEdited.models[]": "model names",
  "KeysetUsed.at": "a time",
  "ModelDefaultsChanged.model": "a model name",
  "ChatLayoutChanged.layout.responseLanguage": "a language name from the app's list",
  "UserRegistered.refCode": "a referral code the app makes",
  "VerificationCodeIssued.codeHash": "a hash",
  "UserLoggedIn.sessionRef": "a hash of a session token",
  "UserLoggedOut.sessionRef": "a hash of a session token",
  "AllSessionsRevoked.sessionRefs[]": "hashes of session tokens",
  "ExternalIdentityLinked.issuer": "the provider's address",
  "ExternalIdentityLinked.providerName": "the provider's name",
  "ExternalIdentityLinked.identityKey": "an HMAC of the provider's subject",
  "ProfilePictureChanged.pictureKey": "a generated storage key",
  "ProfilePictureChanged.previousKey": "a generated storage key",
  "AccountDeletionScheduled.reason": "one of the app's listed reasons (DELETION_REASONS)",
  "DocumentRegistered.declaredType": "a media type",
  "DocumentRegistered.settings.embedding.model": "a model name",
  "DocumentRegistered.settings.transcription.model": "a model name",
  "DocumentFileReceived.blobKey": "a generated storage key",
  "DocumentFileReceived.kind": "a file kind the app detects",
  "DocumentFileReceived.contentType": "a media type",
  "DocumentTextExtracted.pagesBlobKey": "a generated storage key",
  "DocumentTextExtracted.warnings[]": "messages the app writes",
  "DocumentFailed.reason": "a message the app writes",
  "ResumeVersionSaved.author": "'user' or a model name",
  "ResumeRepairAttempted.author": "'user' or a model name",
  "WorkspaceCreated.chatPreference.text.model": "a model name",
  "WorkspaceCreated.chatPreference.image.model": "a model name",
  "WorkspaceCreated.chatPreference.embedding.model": "a model name",
  "DocumentsAttached.results[].reason": "a message the app writes",
  "WorkspaceLaunchFailed.reason": "a message the app writes",
  "ChatPreferenceChanged.chatPreference.text.model": "a model name",
  "ChatPreferenceChanged.chatPreference.image.model": "a model name",
  "ChatPreferenceChanged.chatPreference.embedding.model": "a model name",
  "EmbeddingIndexRequested.model": "a model name",
  "EmbeddingIndexProgressed.failure": "a message the app writes",
};

/** Ids and times: a field named `…Id`, `…Ids`, `…At` (or `at`). */
const isIdOrTime = (path: string) => /(Id|Ids\[\]|At)$/.test(path);

type Def = { typeName: string; innerType?: z.ZodTypeAny; type?: z.ZodTypeAny; schema?: z.ZodTypeAny; valueType?: z.ZodTypeAny; options?: z.ZodTypeAny[] };

/** The paths of every string a schema holds outside `personal`. */
function strings(schema: z.ZodTypeAny, path: string): string[] {
  const def = schema._def as Def;
  switch (def.typeName) {
    case "ZodString":
      return [path];
    case "ZodOptional":
    case "ZodNullable":
    case "ZodDefault":
      return strings(def.innerType!, path);
    case "ZodArray":
      return strings(def.type!, `${path}[]`);
    case "ZodEffects":
      return strings(def.schema!, path);
    case "ZodRecord":
      return strings(def.valueType!, `${path}{}`);
    case "ZodUnion":
    case "ZodDiscriminatedUnion":
      return def.options!.flatMap((option) => strings(option, path));
    case "ZodObject":
      return Object.entries((schema as z.AnyZodObject).shape).flatMap(([key, value]) =>
        key === "personal" ? [] : strings(value as z.ZodTypeAny, path ? `${path}.${key}` : key),
      );
    default:
      return [];
  }
}

const definitions = Object.values(import.meta.glob("./*/*-events.ts", { eager: true }) as Record<string, Record<string, unknown>>).flatMap((module) =>
  Object.values(module).flatMap((value) => {
    const events = (value as { events?: Record<string, { data: z.ZodTypeAny }> } | null)?.events;
    return events && typeof events === "object" ? [events] : [];
  }),
);

describe("personal data in events", () => {
  const fields = definitions.flatMap((events) => Object.entries(events).flatMap(([type, schema]) => strings(schema.data, "").map((path) => `${type}.${path}`)));

  it("finds every context's events", () => {
    expect(definitions.length).toBeGreaterThan(10);
    expect(fields).toContain("OrderCreated.currency");
  });

  it("seals every string field that is not an id, a time or declared as no person's words", () => {
    const open = fields.filter((field) => !isIdOrTime(field) && !(field in NOT_PERSONAL));
    expect(open).toEqual([]);
  });

  it("declares nothing that no longer exists", () => {
    expect(Object.keys(NOT_PERSONAL).filter((field) => !fields.includes(field))).toEqual([]);
  });
});
