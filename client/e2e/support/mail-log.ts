/**
 * Reads the mails the e2e server "sent". Without SMTP the server writes each mail as one JSON
 * log line carrying a `mail` object ({ to, subject, text }); playwright.config.ts sends that log
 * to test-results/e2e-server.log. Waiting polls the file until a deadline: no fixed sleeps.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export type LoggedMail = { to: string; subject: string; text: string };

export const SERVER_LOG =
  process.env.E2E_SERVER_LOG ??
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../test-results/e2e-server.log");

const POLL_MS = 100;
// Mail goes through the job queue; on a machine busy with other builds it was seen to take over
// 15 s once. Waiting longer only costs time when the mail is really missing.
const DEFAULT_TIMEOUT_MS = 30_000;
/** A sign-in code is six digits standing alone: not part of a longer number, a token or a URL. */
const CODE_PATTERN = /(?<![\w\-/=.])(\d{6})(?![\w\-/])/;

function isMail(value: unknown): value is LoggedMail {
  if (typeof value !== "object" || value === null) return false;
  const mail = value as Record<string, unknown>;
  return typeof mail.to === "string" && typeof mail.subject === "string" && typeof mail.text === "string";
}

/** Every mail to `email` (case-insensitive) in the order sent; all mails when no address is given. */
export function readMails(email?: string): LoggedMail[] {
  if (!existsSync(SERVER_LOG)) return [];
  const wanted = email?.trim().toLowerCase();
  const mails: LoggedMail[] = [];
  for (const line of readFileSync(SERVER_LOG, "utf8").split("\n")) {
    if (!line.includes('"mail"')) continue;
    let entry: { mail?: unknown };
    try {
      entry = JSON.parse(line) as { mail?: unknown };
    } catch {
      continue; // a line still being written, or not JSON
    }
    if (!isMail(entry.mail)) continue;
    if (wanted === undefined || entry.mail.to.trim().toLowerCase() === wanted) mails.push(entry.mail);
  }
  return mails;
}

/** How many mails `email` has received so far: pass it as `after` to wait for the next one. */
export function mailCount(email: string): number {
  return readMails(email).length;
}

/** The most recent mail to `email`, or undefined when none has arrived. */
export function readLatestMail(email: string): LoggedMail | undefined {
  return readMails(email).at(-1);
}

export type WaitOptions = {
  /** Only mails after the first `after` ones count (see mailCount). Default 0: any mail. */
  after?: number;
  /** Only mails this accepts count. */
  match?: (mail: LoggedMail) => boolean;
  timeoutMs?: number;
};

/** The latest mail to `email` that satisfies the options, polling the log until the deadline. */
export async function waitForMail(email: string, options: WaitOptions = {}): Promise<LoggedMail> {
  const { after = 0, match = () => true, timeoutMs = DEFAULT_TIMEOUT_MS } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = readMails(email).slice(after).filter(match).at(-1);
    if (found) return found;
    if (Date.now() >= deadline) {
      const seen = readMails(email).map((m) => `  - ${m.subject}`);
      throw new Error(
        `No matching mail to ${email} within ${timeoutMs} ms in ${SERVER_LOG}` +
          (seen.length ? `; mails to that address:\n${seen.join("\n")}` : "; none to that address at all."),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The six-digit code of `email`'s latest sign-in mail; pass `after: mailCount(email)` for a re-sent code. */
export async function waitForMagicCode(email: string, options: Omit<WaitOptions, "match"> = {}): Promise<string> {
  const mail = await waitForMail(email, { ...options, match: (m) => CODE_PATTERN.test(m.text) });
  const code = CODE_PATTERN.exec(mail.text)?.[1];
  if (!code) throw new Error(`Mail "${mail.subject}" to ${email} has no six-digit code`);
  return code;
}
