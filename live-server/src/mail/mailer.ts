/**
 * Outgoing e-mail. Messages go through the durable job queue; the worker delivers them with
 * SMTP when configured (god-mode settings first, then the SMTP_* environment), and otherwise
 * writes them to the server log so a self-hoster without SMTP can still read sign-in codes.
 */

import { createRequire } from "node:module";
import type { FastifyBaseLogger } from "fastify";
import type nodemailerModule from "nodemailer";
import type { Config } from "../config.ts";
import type { Db, DbOrTx } from "../db/client.ts";
import { instance } from "../db/schema.ts";
import type { JobQueue } from "../jobs/queue.ts";

const require = createRequire(import.meta.url);
/** nodemailer is loaded when a mail is first sent over SMTP: a faster start. */
const loadNodemailer = (): typeof nodemailerModule => require("nodemailer");

export type MailMessage = { to: string; subject: string; text: string; html?: string };

export type SmtpSettings = {
  host: string;
  port: number;
  user?: string;
  password?: string;
  from: string;
  secure: boolean;
};

export class Mailer {
  private readonly db: Db;
  private readonly config: Config;
  private readonly jobs: JobQueue;
  private readonly log: FastifyBaseLogger;

  constructor(db: Db, config: Config, jobs: JobQueue, log: FastifyBaseLogger) {
    this.db = db;
    this.config = config;
    this.jobs = jobs;
    this.log = log;
    jobs.register("mail.send", (payload) => this.deliver(payload as MailMessage));
  }

  /** Queue a message; pass the transaction that created what it announces. */
  async send(message: MailMessage, tx?: DbOrTx): Promise<void> {
    await this.jobs.enqueue("mail.send", message, tx);
  }

  /** SMTP settings in force: the instance admin's, else the environment's, else none. */
  async smtpSettings(): Promise<SmtpSettings | undefined> {
    const [row] = await this.db.select({ config: instance.config }).from(instance).limit(1);
    const c = row?.config ?? {};
    if (c.smtp_host) {
      return {
        host: c.smtp_host,
        port: c.smtp_port ?? 587,
        user: c.smtp_user || undefined,
        password: c.smtp_password || undefined,
        from: c.smtp_from || `Tideline <no-reply@${new URL(this.config.appBaseUrl).hostname}>`,
        secure: c.smtp_use_ssl ?? false,
      };
    }
    return this.config.smtp;
  }

  async isConfigured(): Promise<boolean> {
    return (await this.smtpSettings()) !== undefined;
  }

  /** Send now, bypassing the queue, and report failure to the caller (admin "send test mail"). */
  async sendNow(message: MailMessage, settings?: SmtpSettings): Promise<void> {
    const smtp = settings ?? (await this.smtpSettings());
    if (!smtp) throw new Error("SMTP is not configured");
    const transport = loadNodemailer().createTransport({
      host: smtp.host,
      port: smtp.port,
      secure: smtp.secure,
      auth: smtp.user ? { user: smtp.user, pass: smtp.password ?? "" } : undefined,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
    });
    try {
      await transport.sendMail({ from: smtp.from, ...message });
    } finally {
      transport.close();
    }
  }

  private async deliver(message: MailMessage): Promise<void> {
    const smtp = await this.smtpSettings();
    if (!smtp) {
      // No SMTP: the log is the outbox. One structured line per mail.
      this.log.info(
        { mail: { to: message.to, subject: message.subject, text: message.text } },
        "mail (SMTP not configured)",
      );
      return;
    }
    await this.sendNow(message, smtp);
  }
}
