/**
 * Test-only support for the auth tests: a real SMTP server on 127.0.0.1 that keeps what it
 * receives (codes and reset links are read out of real mail, the mailer is not mocked), and
 * small assertions for the two refusal shapes (JSON body, form redirect).
 */
import type { AddressInfo } from "node:net";
import { AUTH_ERROR_MESSAGE, type AuthErrorCode, authErrorName } from "@tideline/shared";
import { count } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { SMTPServer } from "smtp-server";
import { expect } from "vitest";
import { redirectQuery, type TestApp } from "../../../test/harness.ts";
import { type InstanceConfig, instance, users } from "../../db/schema.ts";

export type ReceivedMail = { to: string[]; subject: string; text: string };

export type TestSmtp = {
  port: number;
  inbox: ReceivedMail[];
  /** The latest message to `address`, or throws. */
  lastTo: (address: string) => ReceivedMail;
  close: () => Promise<void>;
};

/** Decode a single-part message body as nodemailer writes it (7bit, quoted-printable or base64). */
function decodeBody(headers: string, body: string): string {
  const encoding = /^content-transfer-encoding:\s*(\S+)/im.exec(headers)?.[1]?.toLowerCase();
  if (encoding === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (encoding === "quoted-printable") {
    const joined = body.replace(/=\r?\n/g, "");
    const bytes: number[] = [];
    for (let i = 0; i < joined.length; i++) {
      const hex = joined.slice(i + 1, i + 3);
      if (joined[i] === "=" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
        bytes.push(Number.parseInt(hex, 16));
        i += 2;
      } else {
        bytes.push(joined.charCodeAt(i));
      }
    }
    return Buffer.from(bytes).toString("utf8");
  }
  return body;
}

function parseMessage(raw: string, to: string[]): ReceivedMail {
  const split = raw.search(/\r?\n\r?\n/);
  const headers = raw.slice(0, split).replace(/\r?\n[ \t]+/g, " ");
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, "");
  const subject = /^subject:\s*(.*)$/im.exec(headers)?.[1]?.trim() ?? "";
  return { to, subject, text: decodeBody(headers, body).replace(/\r\n/g, "\n") };
}

export async function startTestSmtp(): Promise<TestSmtp> {
  const inbox: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    // nodemailer would upgrade to TLS and then refuse the server's self-signed certificate.
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
        inbox.push(parseMessage(Buffer.concat(chunks).toString("utf8"), to));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    inbox,
    lastTo(address) {
      const found = inbox.filter((m) => m.to.includes(address.toLowerCase())).at(-1);
      if (!found) throw new Error(`no mail to ${address}`);
      return found;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A JSON auth refusal: 400 (429 for the rate limit) with the catalogue code, name and message. */
export function expectAuthError(res: LightMyRequestResponse, code: AuthErrorCode): void {
  expect(res.statusCode, res.body).toBe(code === 5900 ? 429 : 400);
  expect(res.json()).toEqual({ error_code: code, error_message: authErrorName(code), error: AUTH_ERROR_MESSAGE[code] });
}

/** A form refusal: a 302 back to `page` carrying the code and its catalogue name. */
export function expectRedirectError(res: LightMyRequestResponse, page: string, code: AuthErrorCode) {
  expect(res.statusCode, res.body).toBe(302);
  const { path, query } = redirectQuery(res);
  expect(path).toBe(page);
  expect(query.error_code).toBe(String(code));
  expect(query.error_message).toBe(authErrorName(code));
  expect(res.cookies.find((c) => c.name === "session-id")).toBeUndefined();
  return query;
}

export async function countUsers(t: TestApp): Promise<number> {
  const [row] = await t.db.select({ n: count() }).from(users);
  return row?.n ?? 0;
}

/** Run `fn` with instance config switches changed, then put them back. */
export async function withConfig(t: TestApp, patch: InstanceConfig, fn: () => Promise<void>): Promise<void> {
  const [row] = await t.db.select({ config: instance.config }).from(instance);
  const before = row?.config ?? {};
  await t.db.update(instance).set({ config: { ...before, ...patch } });
  try {
    await fn();
  } finally {
    await t.db.update(instance).set({ config: before });
  }
}
