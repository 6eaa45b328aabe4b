/**
 * A durable job queue in the database (e-mail now; webhooks and exports later). Jobs survive
 * restarts; several instances share the table safely through `FOR UPDATE SKIP LOCKED`.
 * Enqueueing kicks the local worker at once, so a sign-in code is not delayed by polling.
 */
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { type Db, type DbOrTx, queryRows } from "../db/client.ts";
import { jobs } from "../db/schema.ts";

export type JobHandler = (payload: Record<string, unknown>) => Promise<void>;

const MAX_ATTEMPTS = 5;
const POLL_MS = 5000;

export class JobQueue {
  private readonly handlers = new Map<string, JobHandler>();
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

  register(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler);
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
      return this.running;
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

  private async drain(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const claimed = await queryRows<{ id: string; kind: string; payload: Record<string, unknown>; attempts: number }>(
        this.db,
        sql`
        update jobs set status = 'running', attempts = attempts + 1, updated_at = now()
        where id = (
          select id from jobs where status = 'pending' and run_after <= now()
          order by run_after limit 1 for update skip locked
        )
        returning id, kind, payload, attempts`,
      );
      const job = claimed[0];
      if (!job) return;
      const handler = this.handlers.get(job.kind);
      try {
        if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
        await handler(job.payload);
        await this.db.execute(sql`delete from jobs where id = ${job.id}`);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const failed = job.attempts >= MAX_ATTEMPTS;
        this.log.warn({ jobId: job.id, kind: job.kind, attempts: job.attempts, err: message }, "job failed");
        // Exponential back-off: 2 s, 4 s, 8 s, 16 s, then give up and keep the row for inspection.
        await this.db.execute(sql`
          update jobs set status = ${failed ? "failed" : "pending"}, last_error = ${message},
            run_after = now() + make_interval(secs => ${2 ** job.attempts})
          where id = ${job.id}`);
      }
    }
  }
}
