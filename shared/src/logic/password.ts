/** Password rules shared by the server and the strength meter (product-domain §5). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

export type PasswordState = "empty" | "length-not-valid" | "strength-not-valid" | "strength-valid";

export const PASSWORD_MESSAGES = {
  emailRequired: "Email is required",
  emailInvalid: "Email is invalid",
  mismatch: "Passwords don't match",
  enterPassword: "Please enter your password",
  tooShort: "Password must be at least 8 characters long",
  weak: "Password is weak",
  strong: "Password is strong",
  setStrong: "Try setting-up a strong password to proceed",
} as const;

/**
 * The server-side acceptance rule: a length check only. Strength (zxcvbn score) is advice
 * shown by the client's meter; the server refuses only what is objectively unusable.
 */
export function isAcceptablePassword(password: unknown): password is string {
  return (
    typeof password === "string" && password.length >= PASSWORD_MIN_LENGTH && password.length <= PASSWORD_MAX_LENGTH
  );
}

/** Classify a password given a 0–4 strength score computed by the caller (zxcvbn). */
export function passwordState(password: string, score: number): PasswordState {
  if (password.length === 0) return "empty";
  if (password.length < PASSWORD_MIN_LENGTH) return "length-not-valid";
  return score >= 3 ? "strength-valid" : "strength-not-valid";
}
