import { describe, expect, it } from "vitest";
import { fieldErrors, signupSchema } from "./credentials";

const errorsFor = (input: Record<string, string>) => {
  const result = signupSchema.safeParse({ username: "alice1", email: "a@example.com", password: "Secret1!", ...input });
  return result.success ? {} : fieldErrors(result.error);
};

describe("sign-up rules (spec 000 §5)", () => {
  it("accepts a letters-and-digits username, a valid email and a strong password", () => {
    expect(errorsFor({})).toEqual({});
  });
  it.each([
    [{ username: "" }, "username", "Username is required"],
    [{ username: "al ice" }, "username", "Username should not contain spaces"],
    [{ username: "al_ice" }, "username", "Username should not contain special characters"],
    [{ email: "nope" }, "email", "Must be a valid email"],
    [{ password: "Sh0rt!" }, "password", "Password must be at least 8 characters long"],
    [{ password: "Waytoolongpassword123!" }, "password", "Password must be less than 20 characters"],
    [{ password: "secret12!" }, "password", "Password must contain at least one uppercase letter"],
    [{ password: "SECRET12!" }, "password", "Password must contain at least one lowercase letter"],
    [{ password: "Secretxx!" }, "password", "Password must contain at least one digit"],
    [{ password: "Secret123" }, "password", "Password must contain at least one special character (@$!%*#?&)"],
  ])("rejects %j with its message", (input, field, message) => {
    expect(errorsFor(input)[field]).toBe(message);
  });
});
