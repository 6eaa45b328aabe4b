import { describe, expect, it } from "vitest";
import { isAcceptablePassword, PASSWORD_MESSAGES, PASSWORD_MIN_LENGTH, passwordState } from "./password.ts";

describe("password rules", () => {
  it("says what the length rule is, without the spec's typo", () => {
    expect(PASSWORD_MESSAGES.tooShort).toBe(`Password must be at least ${PASSWORD_MIN_LENGTH} characters long`);
    for (const message of Object.values(PASSWORD_MESSAGES)) expect(message).not.toMatch(/should me\b/);
  });

  it("accepts exactly the minimum length the message names", () => {
    expect(isAcceptablePassword("a".repeat(PASSWORD_MIN_LENGTH - 1))).toBe(false);
    expect(isAcceptablePassword("a".repeat(PASSWORD_MIN_LENGTH))).toBe(true);
    expect(passwordState("a".repeat(PASSWORD_MIN_LENGTH - 1), 4)).toBe("length-not-valid");
  });
});
