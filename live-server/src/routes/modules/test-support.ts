/** Fixtures for the modules API tests: a module created through the API, and row counts. */
import { count, eq } from "drizzle-orm";
import { expect } from "vitest";
import { client, type TestApp, type TestUser } from "../../../test/harness.ts";
import { moduleIssues, moduleLinks, modules } from "../../db/schema.ts";

let counter = 0;
export const moduleName = () => `Module ${Date.now().toString(36)}${(counter++).toString(36)}`;

export async function createModule(
  t: TestApp,
  user: TestUser,
  projectUrl: string,
  body: Record<string, unknown> = {},
): Promise<Record<string, unknown> & { id: string }> {
  const res = await client(t.app, user).post(`${projectUrl}/modules/`, { name: moduleName(), ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

export async function countModules(t: TestApp, projectId: string): Promise<number> {
  const [row] = await t.db.select({ n: count() }).from(modules).where(eq(modules.projectId, projectId));
  return row?.n ?? 0;
}

export async function moduleRow(t: TestApp, id: string) {
  const [row] = await t.db.select().from(modules).where(eq(modules.id, id));
  return row;
}

export async function countModuleIssues(t: TestApp, moduleId: string): Promise<number> {
  const [row] = await t.db.select({ n: count() }).from(moduleIssues).where(eq(moduleIssues.moduleId, moduleId));
  return row?.n ?? 0;
}

export async function countLinks(t: TestApp, moduleId: string): Promise<number> {
  const [row] = await t.db.select({ n: count() }).from(moduleLinks).where(eq(moduleLinks.moduleId, moduleId));
  return row?.n ?? 0;
}
