/** Small data builders shared by the workspace and user route tests (test-only). */
import { count, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { projectMembers, projects, workspaceInvitations, workspaceMembers } from "../../db/schema.ts";

let n = 0;

/** A project in `workspaceId` with the given users as active members at the given roles. */
export async function createProject(db: Db, workspaceId: string, members: { userId: string; role: number }[]) {
  n++;
  const [project] = await db
    .insert(projects)
    .values({ workspaceId, name: `Project ${n} ${Date.now()}`, identifier: `P${n}${Date.now() % 100000}`.slice(0, 12) })
    .returning();
  if (!project) throw new Error("project insert failed");
  if (members.length > 0) {
    await db
      .insert(projectMembers)
      .values(members.map((m) => ({ workspaceId, projectId: project.id, memberId: m.userId, role: m.role })));
  }
  return project;
}

export async function membershipOf(db: Db, workspaceId: string, userId: string) {
  const rows = await db.select().from(workspaceMembers).where(eq(workspaceMembers.workspaceId, workspaceId));
  return rows.find((r) => r.memberId === userId);
}

export async function countInvitations(db: Db, workspaceId?: string): Promise<number> {
  const query = db.select({ n: count() }).from(workspaceInvitations);
  const [row] = await (workspaceId ? query.where(eq(workspaceInvitations.workspaceId, workspaceId)) : query);
  return row?.n ?? 0;
}

export async function countMembers(db: Db, workspaceId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(workspaceMembers)
    .where(eq(workspaceMembers.workspaceId, workspaceId));
  return row?.n ?? 0;
}
