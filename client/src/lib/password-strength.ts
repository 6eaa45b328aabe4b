/**
 * Password strength for the meter (product-domain §5): zxcvbn's 0–4 score turned into the
 * shared password state. Only @zxcvbn-ts/core is installed, whose matchers (sequences,
 * repeats, dates, brute force) know no words; a short list of the most common passwords and
 * the person's own details (email, names) stop the obvious choices from scoring as strong.
 */
import { type PasswordState, passwordState } from "@tideline/shared";
import { ZxcvbnFactory } from "@zxcvbn-ts/core";

const COMMON_PASSWORDS = [
  "password",
  "passw0rd",
  "p@ssword",
  "p@ssw0rd",
  "123456",
  "12345678",
  "123456789",
  "1234567890",
  "qwerty",
  "qwertyuiop",
  "azerty",
  "abc123",
  "letmein",
  "welcome",
  "admin",
  "administrator",
  "iloveyou",
  "monkey",
  "dragon",
  "football",
  "baseball",
  "master",
  "sunshine",
  "princess",
  "shadow",
  "superman",
  "trustno1",
  "whatever",
  "starwars",
  "changeme",
  "secret",
  "login",
  "default",
  "computer",
  "internet",
  "hello",
  "freedom",
  "summer",
  "winter",
  "spring",
  "autumn",
  "tideline",
];

let factory: ZxcvbnFactory | null = null;

function zxcvbn(): ZxcvbnFactory {
  factory ??= new ZxcvbnFactory({ dictionary: { common: COMMON_PASSWORDS } });
  return factory;
}

export type PasswordStrength = { state: PasswordState; score: number };

/** Score `password`; `userInputs` (email, names) count as guessable words. */
export function passwordStrength(password: string, userInputs: string[] = []): PasswordStrength {
  if (password.length === 0) return { state: "empty", score: 0 };
  const inputs = userInputs.flatMap((value) => value.toLowerCase().split(/[@.\s_+-]+/)).filter((v) => v.length > 2);
  const score = zxcvbn().check(password, inputs).score;
  return { state: passwordState(password, score), score };
}
