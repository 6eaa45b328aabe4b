/**
 * One webhook POST, safe against SSRF and slow receivers:
 * - the host name is resolved once, every address checked (webhooks/addresses.ts), and the
 *   connection made to a checked address through the request's `lookup`, so DNS cannot answer
 *   differently between the check and the connection (no rebinding window); TLS still verifies
 *   the certificate for the name (SNI and Host are the URL's);
 * - redirects are never followed: a 3xx is a failed delivery, logged with its Location;
 * - 10 s for the whole exchange; the answer is read up to 64 KB, and its first 1 KB kept.
 */

import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { resolveAllowed } from "./addresses.ts";

export const DELIVERY_TIMEOUT_MS = 10_000;
const READ_LIMIT = 64 * 1024;
const KEEP = 1024;

export type PostResult =
  | { ok: true; status: number; body: string; durationMs: number }
  | { ok: false; status: number | null; body: string | null; error: string; durationMs: number };

/** POST `body` to `url` with `headers`; never throws. */
export async function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  allowPrivate: boolean,
): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let target: URL;
  try {
    target = new URL(url);
    if (target.protocol !== "http:" && target.protocol !== "https:") throw new Error("Only HTTP and HTTPS are allowed");
  } catch (error) {
    return { ok: false, status: null, body: null, error: messageOf(error), durationMs: elapsed() };
  }
  const signal = AbortSignal.timeout(DELIVERY_TIMEOUT_MS);
  try {
    // Checked here (IP literals never reach `lookup`) and again by `lookup` for names.
    const addresses = await resolveAllowed(target.hostname, allowPrivate);
    const checked = addresses[0] as { address: string; family: number };
    const pinned: LookupFunction = (_hostname, options, callback) => {
      if (options.all) callback(null, [checked]);
      else callback(null, checked.address, checked.family);
    };
    const response = await send(target, body, headers, pinned, signal);
    const durationMs = elapsed();
    if (response.status >= 200 && response.status < 300) {
      return { ok: true, status: response.status, body: response.body, durationMs };
    }
    const error =
      response.status >= 300 && response.status < 400
        ? `Redirect not followed (${response.status}${response.location ? ` to ${response.location}` : ""})`
        : `The receiver answered ${response.status}`;
    return { ok: false, status: response.status, body: response.body, error, durationMs };
  } catch (error) {
    const message = signal.aborted ? `No answer within ${DELIVERY_TIMEOUT_MS / 1000} s` : messageOf(error);
    return { ok: false, status: null, body: null, error: message, durationMs: elapsed() };
  }
}

type RawResponse = { status: number; body: string; location: string | undefined };

function send(
  target: URL,
  body: string,
  headers: Record<string, string>,
  lookup: LookupFunction,
  signal: AbortSignal,
): Promise<RawResponse> {
  const client = target.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      target,
      {
        method: "POST",
        headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) },
        lookup,
        signal,
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let read = 0;
        const finish = () => {
          const text = Buffer.concat(chunks).subarray(0, KEEP).toString("utf8");
          const location = response.headers.location;
          resolve({ status: response.statusCode ?? 0, body: text, location });
        };
        response.on("data", (chunk: Buffer) => {
          if (read < KEEP) chunks.push(chunk);
          read += chunk.length;
          if (read >= READ_LIMIT) {
            // Enough: the rest of a large answer is neither kept nor waited for.
            response.destroy();
            finish();
          }
        });
        response.on("end", finish);
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

function messageOf(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: string }).code;
    return code && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
  }
  return String(error);
}
