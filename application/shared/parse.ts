import type { ZodType, ZodTypeDef } from "zod";
import { DomainError } from "#domain/shared/domain-error";

/** Validates input with the form's schema; the first problem becomes a DomainError naming its field. */
export function parseInput<Output>(schema: ZodType<Output, ZodTypeDef, unknown>, input: unknown): Output {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new DomainError("VALIDATION", issue?.message ?? "Invalid input", issue?.path[0]?.toString());
}
