/**
 * The authentication and instance-admin error catalogue (calls-errors-sync §8).
 * The server answers with `error_code` + `error_message` (the NAME below); the client
 * maps the code to a human message and the step where the banner shows.
 */
export const AUTH_ERROR = {
  INSTANCE_NOT_CONFIGURED: 5000,
  INVALID_EMAIL: 5005,
  EMAIL_REQUIRED: 5010,
  SIGNUP_DISABLED: 5015,
  MAGIC_LINK_LOGIN_DISABLED: 5016,
  PASSWORD_LOGIN_DISABLED: 5018,
  USER_ACCOUNT_DEACTIVATED: 5019,
  INVALID_PASSWORD: 5020,
  SMTP_NOT_CONFIGURED: 5025,
  USER_ALREADY_EXIST: 5030,
  AUTHENTICATION_FAILED_SIGN_UP: 5035,
  REQUIRED_EMAIL_PASSWORD_SIGN_UP: 5040,
  INVALID_EMAIL_SIGN_UP: 5045,
  INVALID_EMAIL_MAGIC_SIGN_UP: 5050,
  MAGIC_SIGN_UP_EMAIL_CODE_REQUIRED: 5055,
  USER_DOES_NOT_EXIST: 5060,
  AUTHENTICATION_FAILED_SIGN_IN: 5065,
  REQUIRED_EMAIL_PASSWORD_SIGN_IN: 5070,
  INVALID_EMAIL_SIGN_IN: 5075,
  INVALID_EMAIL_MAGIC_SIGN_IN: 5080,
  MAGIC_SIGN_IN_EMAIL_CODE_REQUIRED: 5085,
  INVALID_MAGIC_CODE_SIGN_IN: 5090,
  INVALID_MAGIC_CODE_SIGN_UP: 5092,
  EXPIRED_MAGIC_CODE_SIGN_IN: 5095,
  EXPIRED_MAGIC_CODE_SIGN_UP: 5097,
  EMAIL_CODE_ATTEMPT_EXHAUSTED_SIGN_IN: 5100,
  EMAIL_CODE_ATTEMPT_EXHAUSTED_SIGN_UP: 5102,
  OAUTH_NOT_CONFIGURED: 5104,
  GOOGLE_NOT_CONFIGURED: 5105,
  GITHUB_NOT_CONFIGURED: 5110,
  GITLAB_NOT_CONFIGURED: 5111,
  GOOGLE_OAUTH_PROVIDER_ERROR: 5115,
  GITHUB_OAUTH_PROVIDER_ERROR: 5120,
  GITLAB_OAUTH_PROVIDER_ERROR: 5121,
  INVALID_PASSWORD_TOKEN: 5125,
  EXPIRED_PASSWORD_TOKEN: 5130,
  INCORRECT_OLD_PASSWORD: 5135,
  MISSING_PASSWORD: 5138,
  INVALID_NEW_PASSWORD: 5140,
  PASSWORD_ALREADY_SET: 5145,
  ADMIN_ALREADY_EXIST: 5150,
  REQUIRED_ADMIN_EMAIL_PASSWORD_FIRST_NAME: 5155,
  INVALID_ADMIN_EMAIL: 5160,
  INVALID_ADMIN_PASSWORD: 5165,
  REQUIRED_ADMIN_EMAIL_PASSWORD: 5170,
  ADMIN_AUTHENTICATION_FAILED: 5175,
  ADMIN_USER_ALREADY_EXIST: 5180,
  ADMIN_USER_DOES_NOT_EXIST: 5185,
  ADMIN_USER_DEACTIVATED: 5190,
  RATE_LIMIT_EXCEEDED: 5900,
} as const;

export type AuthErrorName = keyof typeof AUTH_ERROR;
export type AuthErrorCode = (typeof AUTH_ERROR)[AuthErrorName];

const NAME_BY_CODE = new Map<number, AuthErrorName>(
  (Object.entries(AUTH_ERROR) as [AuthErrorName, number][]).map(([name, code]) => [code, name]),
);

export function authErrorName(code: number): AuthErrorName | undefined {
  return NAME_BY_CODE.get(code);
}

/** Where the client shows an auth error. */
export type AuthErrorPlacement = "banner" | "toast" | "inline";

/** Human messages (English source of truth; the client translates by code). */
export const AUTH_ERROR_MESSAGE: Record<AuthErrorCode, string> = {
  5000: "This instance is not set up yet. Ask your administrator to finish the set-up.",
  5005: "That email address is not valid.",
  5010: "Email is required.",
  5015: "New sign-ups are disabled on this instance. Ask your administrator for an invitation.",
  5016: "Sign-in with a unique code is disabled. Use your password instead.",
  5018: "Password sign-in is disabled. Use a unique code instead.",
  5019: "This account has been deactivated. Contact your administrator.",
  5020: "The password is not valid. Use at least 8 characters.",
  5025: "Email delivery is not configured on this instance, so we cannot send the link.",
  5030: "An account with this email already exists. Sign in instead.",
  5035: "Sign-up failed. Please try again.",
  5040: "Email and password are required.",
  5045: "That email address is not valid.",
  5050: "That email address is not valid.",
  5055: "Enter the code we sent to your email.",
  5060: "No account exists with this email. Sign up instead.",
  5065: "The email or password is incorrect.",
  5070: "Email and password are required.",
  5075: "That email address is not valid.",
  5080: "That email address is not valid.",
  5085: "Enter the code we sent to your email.",
  5090: "That code is not valid. Check it or request a new one.",
  5092: "That code is not valid. Check it or request a new one.",
  5095: "That code has expired. Request a new one.",
  5097: "That code has expired. Request a new one.",
  5100: "Too many wrong attempts for this code. Request a new one.",
  5102: "Too many wrong attempts for this code. Request a new one.",
  5104: "OAuth sign-in is not configured.",
  5105: "Google sign-in is not configured.",
  5110: "GitHub sign-in is not configured.",
  5111: "GitLab sign-in is not configured.",
  5115: "Google sign-in failed.",
  5120: "GitHub sign-in failed.",
  5121: "GitLab sign-in failed.",
  5125: "This reset link is not valid. Request a new one.",
  5130: "This reset link has expired. Request a new one.",
  5135: "Your current password is incorrect.",
  5138: "Password is required.",
  5140: "The new password is not valid. Use at least 8 characters.",
  5145: "A password is already set for this account.",
  5150: "An instance administrator already exists.",
  5155: "Email, password and first name are required.",
  5160: "That email address is not valid.",
  5165: "The password is not valid. Use at least 8 characters and avoid weak passwords.",
  5170: "Email and password are required.",
  5175: "The email or password is incorrect.",
  5180: "An account with this email already exists.",
  5185: "No administrator exists with this email.",
  5190: "This administrator account has been deactivated.",
  5900: "Too many attempts. Wait a minute and try again.",
};

/** Codes whose banner belongs on the password step / the code step of the sign-in flow. */
export const PASSWORD_STEP_CODES: ReadonlySet<number> = new Set([5018, 5020, 5040, 5065, 5070, 5035]);
export const CODE_STEP_CODES: ReadonlySet<number> = new Set([5016, 5055, 5085, 5090, 5092, 5095, 5097, 5100, 5102]);

/**
 * The REST refusal (403, `code`) for a call that needs a proven e-mail address: seeing or
 * answering invitations addressed to it. A password sign-up does not prove the address; a
 * code mailed to it (or the invitation link's token) does.
 */
export const EMAIL_NOT_VERIFIED = "EMAIL_NOT_VERIFIED";
export const EMAIL_NOT_VERIFIED_MESSAGE =
  "Verify your e-mail address first: invitations sent to it are shown once you have entered the code we mail to it.";
