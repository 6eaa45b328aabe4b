/** The instance row (one per installation) and its public view. */
import { count } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { type InstanceConfig, instance, instanceAdmins } from "../../db/schema.ts";

export type InstanceRow = typeof instance.$inferSelect;

/** Create the instance row on first start (idempotent, safe under concurrent starts). */
export async function ensureInstance(db: DbOrTx): Promise<void> {
  const [existing] = await db.select({ n: count() }).from(instance);
  if ((existing?.n ?? 0) > 0) return;
  await db.insert(instance).values({}).onConflictDoNothing();
}

export async function getInstance(db: DbOrTx): Promise<InstanceRow> {
  const [row] = await db.select().from(instance).limit(1);
  if (!row) throw new Error("instance row missing");
  return row;
}

export async function hasInstanceAdmin(db: DbOrTx): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(instanceAdmins);
  return (row?.n ?? 0) > 0;
}

/** Effective sign-in switches, with their defaults (everything on). */
export function authSwitches(config: InstanceConfig) {
  return {
    enable_signup: config.enable_signup ?? true,
    is_email_password_enabled: config.enable_email_password ?? true,
    is_magic_login_enabled: config.enable_magic_login ?? true,
  };
}
