/**
 * Exactly once per client mutation id (issue 12, offline outbox). A change sent with an
 * x-client-mutation-id stores its answer in the same transaction as the change; the same id sent
 * again by the same user — a replayed outbox entry, a retry of a request that got no answer —
 * gets that answer back and changes nothing. Two copies racing each other: the second one's
 * insert waits on the primary key until the first commits, fails, rolls its own change back, and
 * answers the first one's stored result. An id longer than the limit is refused (400) before
 * anything runs: dropped silently, the change would apply again on every replay.
 */
import { CLIENT_MUTATION_HEADER } from "@tideline/shared";
import { and, eq, lt, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { Db, Tx } from "../db/client.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { clientMutations } from "../db/schema.ts";
import { type EmitFn, type EventBus, eventOrigin, transactionWithEvents } from "../events/bus.ts";
import { badRequest, conflict } from "../http/errors.ts";

/** How long an answer is kept: longer than any outbox waits offline in practice. */
const KEPT_DAYS = 30;

/** The longest client mutation id kept (events/bus.ts carries no longer one; the outbox sends UUIDs). */
export const MAX_CLIENT_MUTATION_ID_LENGTH = 100;

/**
 * The request's client mutation id, or null without one. One that is too long to keep is the
 * request's fault: 400 INVALID_CLIENT_MUTATION_ID, nothing stored or changed.
 */
function clientMutationIdOf(request: FastifyRequest): string | null {
  const raw = request.headers[CLIENT_MUTATION_HEADER];
  const value = Array.isArray(raw) ? raw.join(", ") : raw;
  if (!value) return null;
  if (value.length > MAX_CLIENT_MUTATION_ID_LENGTH) {
    throw badRequest(
      `The ${CLIENT_MUTATION_HEADER} header is ${value.length} characters long; at most ${MAX_CLIENT_MUTATION_ID_LENGTH} are allowed.`,
      undefined,
      "INVALID_CLIENT_MUTATION_ID",
    );
  }
  return value;
}

export type MutationAnswer = { status: number; body: unknown };

function requestKey(request: FastifyRequest): string {
  return `${request.method} ${request.url.split("?")[0]}`;
}

async function storedAnswer(db: Db, userId: string, mutationId: string, key: string): Promise<MutationAnswer | null> {
  const [row] = await db
    .select()
    .from(clientMutations)
    .where(and(eq(clientMutations.userId, userId), eq(clientMutations.mutationId, mutationId)))
    .limit(1);
  if (!row) return null;
  if (row.request !== key) {
    throw conflict("This client mutation id was already used for another change.", undefined, "MUTATION_ID_REUSED");
  }
  return { status: row.status, body: row.response };
}

/**
 * Run a change in `transactionWithEvents` at most once per (user, client mutation id). Without
 * the header (or without a signed-in user) it simply runs. Resolves to the answer to send:
 * `status` with the work's value, or the stored answer of the first time.
 */
export async function transactionOnce<T>(
  db: Db,
  events: EventBus,
  request: FastifyRequest,
  status: number,
  work: (tx: Tx, emit: EmitFn) => Promise<T>,
): Promise<MutationAnswer> {
  const mutationId = clientMutationIdOf(request);
  const origin = eventOrigin(request);
  const userId = request.user?.id;
  if (!userId || !mutationId) {
    return { status, body: await transactionWithEvents(db, events, origin, work) };
  }
  const key = requestKey(request);
  const earlier = await storedAnswer(db, userId, mutationId, key);
  if (earlier) return earlier;
  try {
    const body = await transactionWithEvents(db, events, origin, async (tx, emit) => {
      const value = await work(tx, emit);
      // The answer as the client receives it (dates as ISO strings).
      const response = JSON.parse(JSON.stringify(value ?? null)) as unknown;
      await tx.insert(clientMutations).values({ userId, mutationId, request: key, status, response });
      await tx
        .delete(clientMutations)
        .where(
          and(
            eq(clientMutations.userId, userId),
            lt(clientMutations.createdAt, sql`now() - make_interval(days => ${KEPT_DAYS})`),
          ),
        );
      return value;
    });
    return { status, body };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const first = await storedAnswer(db, userId, mutationId, key);
    if (first) return first;
    throw error;
  }
}
