import { z } from "zod";
import { isLanguage } from "./languages";

/**
 * Onboarding and profile forms (spec 000 §5 Onboarding, 001 §5 Profile edit):
 * the same schemas validate in the browser and in the action.
 */

/** Onboarding's occupations; 'Developer' is offered outside production only (spec 000 §5). */
export const ONBOARDING_OCCUPATIONS = ["Student", "Teacher", "Engineer", "Interviewee", "Other"] as const;
export const DEVELOPER_OCCUPATION = "Developer";
/** The profile page's occupations (spec 001 §5). */
export const PROFILE_OCCUPATIONS = ["Engineer", "Doctor", "Teacher", "Interviewee", "Lawyer", "Other"] as const;

export function onboardingOccupations(isProduction: boolean): string[] {
  return isProduction ? [...ONBOARDING_OCCUPATIONS] : [...ONBOARDING_OCCUPATIONS, DEVELOPER_OCCUPATION];
}

/** Every occupation a stored profile may hold (onboarding and profile lists together). */
export const ALL_OCCUPATIONS: readonly string[] = [...new Set<string>([...ONBOARDING_OCCUPATIONS, DEVELOPER_OCCUPATION, ...PROFILE_OCCUPATIONS])];

const name = (label: string) =>
  z
    .string()
    .trim()
    .max(50, `${label} must be at most 50 characters`)
    .refine((v) => !/[<>]/.test(v), `${label} contains characters that are not allowed`);

const languageField = z
  .string()
  .trim()
  .refine((v) => v === "" || isLanguage(v), "Please select a language from the list");

export function onboardingSchema(isProduction: boolean) {
  const occupations = onboardingOccupations(isProduction);
  return z.object({
    firstName: name("First name"),
    lastName: name("Last name"),
    email: z.string().trim().min(1, "Email is required").email("Invalid email address"),
    occupation: z
      .string()
      .trim()
      .min(1, "Occupation type is required")
      .refine((v) => occupations.includes(v), "Occupation type is required"),
    language: languageField,
  });
}

export const profileSchema = z.object({
  firstName: name("First name"),
  lastName: name("Last name"),
  occupation: z
    .string()
    .trim()
    .min(1, "Occupation type is required")
    .refine((v) => ALL_OCCUPATIONS.includes(v), "Occupation type is required"),
  language: z
    .string()
    .trim()
    .min(1, "Please select a language")
    .refine((v) => isLanguage(v), "Please select a language"),
});

/** Field -> first message, for forms. */
export function formErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    out[key] ??= issue.message;
  }
  return out;
}

/* ---------- Profile picture (spec 000 §5 image-only uploader, 001 §5) ---------- */

export const PICTURE_MAX_BYTES = 5 * 1024 * 1024;
export const PICTURE_SIZE_PX = 250;
export const PICTURE_FILE_NAME = "profile-picture.png";

/** The chosen source image, checked before cropping (browser) — JPG/JPEG only, at most 5 MB. */
export function checkPictureSource(file: { name: string; type: string; size: number }): string | null {
  const extension = file.name.toLowerCase().split(".").pop() ?? "";
  const typeOk = file.type === "image/jpeg" || file.type === "image/jpg";
  if (!typeOk || !["jpg", "jpeg"].includes(extension)) return "Only JPG and JPEG images are allowed.";
  if (file.size > PICTURE_MAX_BYTES) return "Image file size exceeds 5MB limit.";
  return null;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * The cropped upload, checked on the server: a real PNG (signature and IHDR),
 * exactly 250×250, at most 5 MB. Magic bytes, not the declared type, decide.
 */
export function checkCroppedPicture(bytes: Uint8Array): { ok: true } | { ok: false; message: string } {
  if (bytes.byteLength === 0) return { ok: false, message: "Please choose an image." };
  if (bytes.byteLength > PICTURE_MAX_BYTES) return { ok: false, message: "Image file size exceeds 5MB limit." };
  const isPng = bytes.byteLength >= 24 && PNG_SIGNATURE.every((b, i) => bytes[i] === b);
  // The first chunk must be IHDR (bytes 12..15), which holds width and height.
  const ihdr = isPng && String.fromCharCode(bytes[12], bytes[13], bytes[14], bytes[15]) === "IHDR";
  if (!isPng || !ihdr) return { ok: false, message: "The profile picture must be a PNG image." };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  if (width !== PICTURE_SIZE_PX || height !== PICTURE_SIZE_PX) {
    return { ok: false, message: `The profile picture must be ${PICTURE_SIZE_PX}×${PICTURE_SIZE_PX} pixels.` };
  }
  return { ok: true };
}

/* ---------- Account deletion (spec 001 §5) ---------- */

export const DELETION_REASONS = [
  "Privacy Concerns",
  "Security Risks",
  "Lack of Use",
  "Unwanted Charges",
  "Poor User Experience",
  "Other",
] as const;
export const DELETION_CONFIRMATION = "Delete My Account";

export const deleteAccountSchema = z.object({
  reason: z.enum(DELETION_REASONS, { errorMap: () => ({ message: "Please choose a reason" }) }),
  confirmation: z.literal(DELETION_CONFIRMATION, {
    errorMap: () => ({ message: `Type '${DELETION_CONFIRMATION}' exactly to confirm` }),
  }),
});

/** Grace period (spec 001 §4): 7 days in production, 10 minutes elsewhere; overridable for tests. */
export function deletionGraceMs(isProduction: boolean, overrideMs?: number | null): number {
  if (overrideMs && overrideMs > 0) return overrideMs;
  return isProduction ? 7 * 24 * 60 * 60 * 1000 : 10 * 60 * 1000;
}

/** '6 days 23 hours', '9 minutes 12 seconds', … for the banner. */
export function formatRemaining(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(total / 86400);
  const hours = Math.floor((total % 86400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (days > 0) return `${unit(days, "day")} ${unit(hours, "hour")}`;
  if (hours > 0) return `${unit(hours, "hour")} ${unit(minutes, "minute")}`;
  if (minutes > 0) return `${unit(minutes, "minute")} ${unit(seconds, "second")}`;
  return unit(seconds, "second");
}
