import { z } from "zod";

/**
 * Sign-up and login rules with the spec's messages (000 §5). The same schemas
 * validate in the browser and in actions, so both sides always agree.
 */

export const PASSWORD_SPECIALS = "@$!%*#?&";

export const usernameSchema = z
  .string({ required_error: "Username is required" })
  .trim()
  .min(1, "Username is required")
  .max(32, "Username must be at most 32 characters")
  .refine((v) => !/\s/.test(v), "Username should not contain spaces")
  .refine((v) => /^[A-Za-z0-9]*$/.test(v.replace(/\s/g, "")), "Username should not contain special characters");

export const emailSchema = z
  .string({ required_error: "Email is required" })
  .trim()
  .min(1, "Email is required")
  .max(254, "Must be a valid email")
  .email("Must be a valid email");

export const newPasswordSchema = z
  .string({ required_error: "Password is required" })
  .min(1, "Password is required")
  .min(8, "Password must be at least 8 characters long")
  .max(20, "Password must be less than 20 characters")
  .regex(/[A-Z]/, "Password must contain at least one uppercase letter")
  .regex(/[a-z]/, "Password must contain at least one lowercase letter")
  .regex(/[0-9]/, "Password must contain at least one digit")
  .regex(/[@$!%*#?&]/, `Password must contain at least one special character (${PASSWORD_SPECIALS})`);

export const signupSchema = z.object({
  username: usernameSchema,
  email: emailSchema,
  password: newPasswordSchema,
  refCode: z.string().trim().max(64).optional(),
});

export const loginSchema = z.object({
  username: usernameSchema,
  password: z.string({ required_error: "Password is required" }).min(1, "Password is required").max(200),
});

/** Six one-digit boxes, joined. */
export const verificationCodeSchema = z
  .string({ required_error: "Enter the 6-digit code" })
  .regex(/^[0-9]{6}$/, "Enter the 6-digit code");

export const confirmSignupSchema = z.object({
  username: usernameSchema,
  code: verificationCodeSchema,
});

/** Forgot password, step one (spec 000 §4/§5). */
export const forgotPasswordSchema = z.object({ username: usernameSchema });

/** Forgot password, step two: the code and a new password under the sign-up rules. */
export const resetPasswordSchema = z.object({
  username: usernameSchema,
  code: verificationCodeSchema,
  password: newPasswordSchema,
});

/** Change password (spec 001 §5): both required ('Password is required'); the new one follows the sign-up rules. */
export const changePasswordSchema = z.object({
  oldPassword: z.string({ required_error: "Password is required" }).min(1, "Password is required").max(200),
  newPassword: newPasswordSchema,
});

/** Uniqueness is by normalised value: usernames and emails compare case-insensitively. */
export const normaliseUsername = (username: string) => username.trim().toLowerCase();
export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/** First message per field, for forms that show one message under each input. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    if (!(key in out)) out[key] = issue.message;
  }
  return out;
}
