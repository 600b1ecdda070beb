import { describe, expect, it } from "vitest";
import { DeciderSpecification } from "#domain/shared/decider-specification";
import { checkCroppedPicture, checkPictureSource, onboardingSchema, profileSchema } from "./profile";
import { type ProfileDetails, type UserCommand, type UserEvent, userDecider } from "./user";

const t0 = new Date("2026-01-01T10:00:00Z");
const at = (ms: number) => new Date(t0.getTime() + ms);
const GRACE = 10 * 60_000;
const profile: ProfileDetails = { firstName: "Ada", lastName: "Lovelace", occupation: "Engineer", language: "English" };

const registered: UserEvent[] = [
  ...userDecider.decide(
    {
      type: "RegisterUser",
      userId: "u1",
      username: "ada",
      email: "ada@example.com",
      passwordHash: "hash",
      refCode: null,
      code: { codeId: "c1", codeHash: "h" },
      now: t0,
    },
    userDecider.initialState(),
  ),
  { type: "SignupConfirmed", data: { codeId: "c1", confirmedAt: t0.toISOString() } },
];
const onboarded: UserEvent[] = [...registered, { type: "ProfileCompleted", data: { personal: profile, completedAt: t0.toISOString() } }];
const scheduled: UserEvent[] = [
  ...onboarded,
  { type: "AccountDeletionScheduled", data: { reason: "Lack of Use", scheduledAt: t0.toISOString(), purgeAt: at(GRACE).toISOString() } },
];

const given = (events: UserEvent[]) => DeciderSpecification.for(userDecider).given(events);

describe("onboarding and profile", () => {
  it("completes onboarding once, with the profile under personal", () => {
    const events = given(registered).when({ type: "CompleteOnboarding", profile, now: t0 }).events();
    expect(events).toEqual([{ type: "ProfileCompleted", data: { personal: profile, completedAt: t0.toISOString() } }]);
    expect(given([...registered, ...events]).state()).toMatchObject({ onboarded: true, profile });
    given(onboarded).when({ type: "CompleteOnboarding", profile, now: t0 }).thenThrows("ALREADY_ONBOARDED");
  });

  it("updates the profile, and records nothing when nothing changed", () => {
    const changed = { ...profile, occupation: "Lawyer" };
    expect(given(onboarded).when({ type: "UpdateProfile", profile: changed, now: t0 }).events()[0]).toMatchObject({
      type: "ProfileUpdated",
      data: { personal: changed },
    });
    given(onboarded).when({ type: "UpdateProfile", profile, now: t0 }).then([]);
    given(registered).when({ type: "UpdateProfile", profile, now: t0 }).thenThrows("NOT_ONBOARDED");
  });

  it("changes the picture and remembers the previous key", () => {
    const first = given(onboarded).when({ type: "ChangeProfilePicture", pictureKey: "avatars/u1/a.png", now: t0 }).events();
    expect(first[0]).toMatchObject({ type: "ProfilePictureChanged", data: { pictureKey: "avatars/u1/a.png", previousKey: null } });
    const second = given([...onboarded, ...first]).when({ type: "ChangeProfilePicture", pictureKey: "avatars/u1/b.png", now: t0 }).events();
    expect(second[0]).toMatchObject({ data: { previousKey: "avatars/u1/a.png" } });
  });

  it("folds shredded profile data (personal: null) to empty strings", () => {
    const state = given([...registered, { type: "ProfileCompleted", data: { personal: null, completedAt: t0.toISOString() } }]).state();
    expect(state).toMatchObject({ onboarded: true, profile: { firstName: "", lastName: "", occupation: "", language: "" } });
  });
});

describe("account deletion", () => {
  it("is scheduled with a reason and a purge time after the grace period", () => {
    const events = given(onboarded).when({ type: "ScheduleAccountDeletion", reason: "Lack of Use", graceMs: GRACE, now: t0 }).events();
    expect(events).toEqual([
      { type: "AccountDeletionScheduled", data: { reason: "Lack of Use", scheduledAt: t0.toISOString(), purgeAt: at(GRACE).toISOString() } },
    ]);
    expect(given(scheduled).state()).toMatchObject({ status: "PENDING_DELETE", purgeAt: at(GRACE).getTime() });
    given(scheduled).when({ type: "ScheduleAccountDeletion", reason: "Other", graceMs: GRACE, now: t0 }).thenThrows("DELETION_ALREADY_SCHEDULED");
  });

  it("refuses every change while pending, but allows login, logout and retrieval", () => {
    const refuse = "Your account is scheduled for deletion. Retrieve it to make changes.";
    given(scheduled).when({ type: "UpdateProfile", profile: { ...profile, lastName: "B" }, now: t0 }).thenThrows("ACCOUNT_PENDING_DELETE", refuse);
    given(scheduled).when({ type: "ChangeProfilePicture", pictureKey: "k", now: t0 }).thenThrows("ACCOUNT_PENDING_DELETE", refuse);
    expect(given(scheduled).when({ type: "RecordLogin", sessionRef: "s1", now: t0 }).events()[0].type).toBe("UserLoggedIn");
    const retrieved = given(scheduled).when({ type: "RetrieveAccount", now: at(60_000) }).events();
    expect(retrieved).toEqual([{ type: "AccountRetrieved", data: { retrievedAt: at(60_000).toISOString() } }]);
    expect(given([...scheduled, ...retrieved]).state()).toMatchObject({ status: "ACTIVE", purgeAt: null });
  });

  it("cannot retrieve an account that is not pending deletion", () => {
    given(onboarded).when({ type: "RetrieveAccount", now: t0 }).thenThrows("NOT_PENDING_DELETE");
  });

  it("starts the purge only when pending and due, then completes it once", () => {
    given(scheduled).when({ type: "StartPurge", now: at(GRACE - 1) }).then([]);
    given(onboarded).when({ type: "StartPurge", now: at(GRACE) }).then([]);
    const started = given(scheduled).when({ type: "StartPurge", now: at(GRACE) }).events();
    expect(started).toEqual([{ type: "AccountPurgeStarted", data: { startedAt: at(GRACE).toISOString() } }]);
    const purging = [...scheduled, ...started];
    given(purging).when({ type: "StartPurge", now: at(GRACE) }).then([]);
    given(purging).when({ type: "RetrieveAccount", now: at(GRACE) }).thenThrows("USER_NOT_FOUND");
    given(purging).when({ type: "RecordLogin", sessionRef: "s", now: at(GRACE) }).thenThrows("USER_NOT_FOUND");
    const purged = given(purging).when({ type: "CompletePurge", now: at(GRACE + 1) }).events();
    expect(purged).toEqual([{ type: "AccountPurged", data: { purgedAt: at(GRACE + 1).toISOString() } }]);
    expect(JSON.stringify(purged)).not.toMatch(/ada|Lovelace/i);
    given([...purging, ...purged]).when({ type: "CompletePurge", now: at(GRACE + 2) }).then([]);
    given(scheduled).when({ type: "CompletePurge", now: at(GRACE) }).thenThrows("PURGE_NOT_STARTED");
  });
});

describe("form rules", () => {
  it("onboarding uses the spec's messages and offers Developer outside production only", () => {
    const base = { firstName: "A", lastName: "B", email: "a@example.com", occupation: "Student", language: "" };
    const issue = (input: object, production = false) => onboardingSchema(production).safeParse(input).error?.issues[0]?.message;
    expect(issue({ ...base, email: "" })).toBe("Email is required");
    expect(issue({ ...base, email: "nope" })).toBe("Invalid email address");
    expect(issue({ ...base, occupation: "" })).toBe("Occupation type is required");
    expect(issue({ ...base, occupation: "Developer" })).toBeUndefined();
    expect(issue({ ...base, occupation: "Developer" }, true)).toBe("Occupation type is required");
  });

  it("the profile needs a language", () => {
    const result = profileSchema.safeParse({ firstName: "A", lastName: "B", occupation: "Doctor", language: "" });
    expect(result.error?.issues[0]?.message).toBe("Please select a language");
  });

  it("pictures: JPG/JPEG up to 5 MB in, a 250×250 PNG out", () => {
    expect(checkPictureSource({ name: "me.png", type: "image/png", size: 10 })).toBe("Only JPG and JPEG images are allowed.");
    expect(checkPictureSource({ name: "me.jpeg", type: "image/jpeg", size: 6 * 1024 * 1024 })).toBe("Image file size exceeds 5MB limit.");
    expect(checkPictureSource({ name: "me.JPG", type: "image/jpeg", size: 1000 })).toBeNull();
    expect(checkCroppedPicture(pngHeader(250, 250))).toEqual({ ok: true });
    expect(checkCroppedPicture(pngHeader(251, 250))).toMatchObject({ ok: false });
    expect(checkCroppedPicture(new Uint8Array([0xff, 0xd8, 0xff, ...new Array(40).fill(0)]))).toMatchObject({ ok: false });
  });
});

/** The first 24 bytes of a PNG: signature + IHDR length/type + width/height. */
export function pngHeader(width: number, height: number): Uint8Array {
  const bytes = new Uint8Array(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const view = new DataView(bytes.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  return bytes;
}
