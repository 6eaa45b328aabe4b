/**
 * A durable job queue in the database (e-mail, webhook deliveries; exports later). Jobs survive
 * restarts; several instances share the table safely through `FOR UPDATE SKIP LOCKED`.
 * Enqueueing kicks the local worker at once, so a sign-in code is not delayed by polling.
 */
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { type Db, type DbOrTx, queryRows } from "../db/client.ts";
import { inBackground } from "../db/priority.ts";
import { jobs } from "../db/schema.ts";

export type JobHandler = (payload: Record<string, unknown>, job: JobInfo) => Promise<void>;

/** What a handler and a retry policy know of the job being run. */
export type JobInfo = { id: string; attempts: number; createdAt: Date };

/**
 * How a kind of job is retried. `retryDelayMs` answers the wait before the next attempt after
 * `attempts` failed ones, or null to give up; `onGiveUp` runs once the job is given up.
 * `maxRunning` (default 1: one after another) caps how many jobs of the kind run at once; the
 * process runs MAX_RUNNING at most, so slow ones (webhooks waiting for a receiver) never hold
 * every slot and mail keeps flowing.
 */
export type JobPolicy = {
  retryDelayMs?: (job: JobInfo) => number | null;
  onGiveUp?: (payload: Record<string, unknown>, error: string) => Promise<void>;
  maxRunning?: number;
};

const MAX_ATTEMPTS = 5;
const POLL_MS = 5000;
/** Jobs run at once by one process (each kind within its own `maxRunning`). */
const MAX_RUNNING = 4;

/** The default: 2 s, 4 s, 8 s, 16 s, then give up and keep the row for inspection. */
const defaultRetryDelayMs = (job: JobInfo): number | null =>
  job.attempts >= MAX_ATTEMPTS ? null : 2 ** job.attempts * 1000;

export class JobQueue {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly policies = new Map<string, JobPolicy>();
  private readonly runningByKind = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  private kicked = false;

  private readonly db: Db;
  private readonly log: FastifyBaseLogger;

  constructor(db: Db, log: FastifyBaseLogger) {
    this.db = db;
    this.log = log;
  }

  register(kind: string, handler: JobHandler, policy: JobPolicy = {}): void {
    this.handlers.set(kind, handler);
    this.policies.set(kind, policy);
  }

  /** Add a job (inside the caller's transaction when given one) and wake the worker. */
  async enqueue(kind: string, payload: Record<string, unknown>, tx: DbOrTx = this.db): Promise<void> {
    await tx.insert(jobs).values({ kind, payload });
    this.kick();
  }

  start(): void {
    this.stopped = false;
    // Jobs left "running" by a crashed process go back to the queue.
    void this.db
      .execute(
        sql`update jobs set status = 'pending' where status = 'running' and updated_at < now() - interval '5 minutes'`,
      )
      .then(() => this.kick());
    this.timer = setInterval(() => this.kick(), POLL_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** Run queued jobs until none is due. Resolves when the queue is drained (used by tests). */
  kick(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.kicked = true;
      // The drain under way may have read the queue before the caller's job was added: the
      // caller waits for the drain that follows it too (started in its `finally`), so a kick
      // resolves once everything queued before it has run.
      return this.running.then(() => this.running);
    }
    this.running = this.drain().finally(() => {
      this.running = undefined;
      if (this.kicked) {
        this.kicked = false;
        void this.kick();
      }
    });
    return this.running;
  }

  /** Claims and runs jobs as background work: requests' statements go first (db/priority.ts). */
  private drain(): Promise<void> {
    return inBackground(() => this.drainJobs());
  }

  private async drainJobs(): Promise<void> {
    const inFlight = new Set<Promise<void>>();
    for (;;) {
      const job = this.stopped || inFlight.size >= MAX_RUNNING ? undefined : await this.claim();
      if (job) {
        const run: Promise<void> = this.run(job).finally(() => inFlight.delete(run));
        inFlight.add(run);
        continue;
      }
      if (!inFlight.size) return;
      await Promise.race(inFlight);
    }
  }

  /** Take the next due job of a kind that has a free slot, or nothing. */
  private async claim(): Promise<ClaimedJob | undefined> {
    // A kind without `maxRunning` runs one job at a time, in order, as every kind did before.
    const full = [...this.runningByKind].filter(([kind, n]) => n >= (this.policies.get(kind)?.maxRunning ?? 1));
    const skip = full.length
      ? sql`and kind not in (${sql.join(
          full.map(([kind]) => sql`${kind}`),
          sql`, `,
        )})`
      : sql``;
    const claimed = await queryRows<ClaimedJob>(
      this.db,
      sql`
        update jobs set status = 'running', attempts = attempts + 1, updated_at = now()
        where id = (
          select id from jobs where status = 'pending' and run_after <= now() ${skip}
          order by run_after limit 1 for update skip locked
        )
        returning id, kind, payload, attempts, created_at`,
    );
    const job = claimed[0];
    if (job) this.runningByKind.set(job.kind, (this.runningByKind.get(job.kind) ?? 0) + 1);
    return job;
  }

  private async run(job: ClaimedJob): Promise<void> {
    const handler = this.handlers.get(job.kind);
    const policy = this.policies.get(job.kind) ?? {};
    const info: JobInfo = { id: job.id, attempts: job.attempts, createdAt: new Date(job.created_at) };
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      await handler(job.payload, info);
      await this.db.execute(sql`delete from jobs where id = ${job.id}`);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const delay = (policy.retryDelayMs ?? defaultRetryDelayMs)(info);
      this.log.warn({ jobId: job.id, kind: job.kind, attempts: job.attempts, err: message }, "job failed");
      try {
        await this.db.execute(sql`
          update jobs set status = ${delay === null ? "failed" : "pending"}, last_error = ${message},
            run_after = now() + make_interval(secs => ${(delay ?? 0) / 1000})
          where id = ${job.id}`);
        if (delay === null) await policy.onGiveUp?.(job.payload, message);
        // A retry due before the next poll is kicked for on time (the poll is 5 s apart).
        else if (delay < POLL_MS) setTimeout(() => void this.kick(), delay + 5).unref();
      } catch (err) {
        this.log.error({ err, jobId: job.id }, "could not record a failed job");
      }
    } finally {
      this.runningByKind.set(job.kind, (this.runningByKind.get(job.kind) ?? 1) - 1);
    }
  }
}

type ClaimedJob = {
  id: string;
  kind: string;
  payload: Record<string, unknown>;
  attempts: number;
  created_at: string | Date;
};
