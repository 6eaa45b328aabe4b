/**
 * /api/v1 project member writes, archives and cycle transfer (the reference's member.py,
 * project.py, cycle.py, module.py):
 * - projects/:id/members/ (and project-members/): POST {member, role} (project admin);
 *   members/:memberId/ (the membership's id): GET the person, PATCH {role}, DELETE (project admin);
 * - projects/:id/archive/: POST archive, DELETE restore (project admin) — 204;
 * - cycles/:id/archive/: POST (a completed cycle); archived-cycles/: GET (paged);
 *   archived-cycles/:id/unarchive/: DELETE — 204;
 * - modules/:id/archive/: POST; archived-modules/: GET (paged); archived-modules/:id/unarchive/:
 *   DELETE — 204;
 * - cycles/:id/transfer-issues/: POST {new_cycle_id} → {"message": "Success"}.
 * The web API's services, so the same rules and events apply.
 */
import { ROLE } from "@tideline/shared";
import { and, eq } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { users } from "../db/schema.ts";
import { eventOrigin } from "../events/bus.ts";
import { notFound, parse } from "../http/errors.ts";
import { requireUuid } from "../http/ids.ts";
import { projectAccess } from "../policies/access.ts";
import { transferBody } from "../routes/cycles/schema.ts";
import { archiveCycle, listArchivedCycles, restoreCycle, transferIssues } from "../routes/cycles/service.ts";
import { archiveModule, listProjectModules, restoreModule } from "../routes/modules/service.ts";
import { addMembers, getMember, removeMember, updateMemberRole } from "../routes/projects/members.ts";
import { updateMemberBody } from "../routes/projects/schema.ts";
import { archiveProject, restoreProject } from "../routes/projects/service.ts";
import { PROJECT, type ProjectParams, type V1, V1_PREFIX } from "./context.ts";
import { paginateList } from "./paginate.ts";
import { publicize } from "./planning.ts";
import { presentUserLite } from "./projects.ts";

export const addProjectMemberBody = z.object({
  member: z.uuid("member must be a user id"),
  role: updateMemberBody.shape.role.optional().default(ROLE.member as 15),
});

type MemberParams = ProjectParams & { memberId: string };

export function registerExtraRoutes({ app, docs }: V1): void {
  const { db } = app.ctx;
  const member = (request: FastifyRequest<{ Params: ProjectParams }>, minRole?: 5 | 15 | 20) =>
    projectAccess(db, request, request.params.slug, request.params.projectId, minRole ? { minRole } : {});
  const tag = "Members";

  for (const segment of ["members", "project-members"] as const) {
    const base = `${PROJECT}/${segment}`;
    docs.add<ProjectParams>(
      app,
      "post",
      `${base}/`,
      {
        summary: "Add a workspace member to the project (project admin)",
        tag,
        body: addProjectMemberBody,
        status: 201,
      },
      async (request, reply) => {
        const access = await member(request, ROLE.admin);
        const body = parse(addProjectMemberBody, request.body);
        const [row] = await addMembers(app.ctx, eventOrigin(request), access, [
          { member_id: body.member, role: body.role },
        ]);
        if (!row) throw notFound("Member");
        return reply.status(201).send({ id: row.id, member: row.member, role: row.role });
      },
    );
    docs.add<MemberParams>(
      app,
      "get",
      `${base}/:memberId/`,
      { summary: "Get a project member", tag },
      async (request) => {
        const access = await member(request);
        const row = await getMember(db, access.project, requireUuid(request.params.memberId, "Member"));
        const [person] = await db
          .select()
          .from(users)
          .where(and(eq(users.id, row.member)))
          .limit(1);
        if (!person) throw notFound("Member");
        return presentUserLite(person);
      },
    );
    docs.add<MemberParams>(
      app,
      "patch",
      `${base}/:memberId/`,
      { summary: "Change a project member's role (project admin)", tag, body: updateMemberBody },
      async (request) => {
        const access = await member(request, ROLE.admin);
        const { role } = parse(updateMemberBody, request.body);
        const row = await updateMemberRole(
          app.ctx,
          eventOrigin(request),
          access,
          requireUuid(request.params.memberId, "Member"),
          role,
        );
        return { id: row.id, member: row.member, role: row.role };
      },
    );
    docs.add<MemberParams>(
      app,
      "delete",
      `${base}/:memberId/`,
      { summary: "Remove a project member (project admin)", tag, empty: true },
      async (request, reply) => {
        const access = await member(request, ROLE.admin);
        await removeMember(app.ctx, eventOrigin(request), access, requireUuid(request.params.memberId, "Member"));
        return reply.status(204).send();
      },
    );
  }

  // ── the token's user (the reference's users/me/) ──
  docs.add<Record<string, never>>(
    app,
    "get",
    `${V1_PREFIX}/users/me/`,
    { summary: "The token's user", tag: "Users" },
    async (request) => {
      if (!request.user) throw notFound("User");
      return presentUserLite(request.user);
    },
  );

  // ── archives ──
  docs.add<ProjectParams>(
    app,
    "post",
    `${PROJECT}/archive/`,
    { summary: "Archive a project (project admin)", tag: "Projects", empty: true },
    async (request, reply) => {
      const access = await projectAccess(db, request, request.params.slug, request.params.projectId, {
        minRole: ROLE.admin,
      });
      await archiveProject(app.ctx, eventOrigin(request), access);
      return reply.status(204).send();
    },
  );
  docs.add<ProjectParams>(
    app,
    "delete",
    `${PROJECT}/archive/`,
    { summary: "Restore an archived project (project admin)", tag: "Projects", empty: true },
    async (request, reply) => {
      const access = await projectAccess(db, request, request.params.slug, request.params.projectId, {
        minRole: ROLE.admin,
      });
      await restoreProject(db, access);
      return reply.status(204).send();
    },
  );

  type CycleParams = ProjectParams & { cycleId: string };
  docs.add<CycleParams>(
    app,
    "post",
    `${PROJECT}/cycles/:cycleId/archive/`,
    { summary: "Archive a completed cycle", tag: "Cycles", empty: true },
    async (request, reply) => {
      const access = await member(request, ROLE.member);
      await archiveCycle(app.ctx, eventOrigin(request), access, request.params.cycleId);
      return reply.status(204).send();
    },
  );
  docs.add<ProjectParams>(
    app,
    "get",
    `${PROJECT}/archived-cycles/`,
    { summary: "List archived cycles", tag: "Cycles", paginated: true },
    async (request) => {
      const access = await member(request);
      const list = await listArchivedCycles(db, access);
      return paginateList(
        request.query,
        list.map((c) => publicize(c as unknown as Record<string, unknown>)),
      );
    },
  );
  docs.add<CycleParams>(
    app,
    "delete",
    `${PROJECT}/archived-cycles/:cycleId/unarchive/`,
    { summary: "Restore an archived cycle", tag: "Cycles", empty: true },
    async (request, reply) => {
      const access = await member(request, ROLE.member);
      await restoreCycle(app.ctx, eventOrigin(request), access, request.params.cycleId);
      return reply.status(204).send();
    },
  );
  docs.add<CycleParams>(
    app,
    "post",
    `${PROJECT}/cycles/:cycleId/transfer-issues/`,
    { summary: "Move a completed cycle's unfinished work items to another cycle", tag: "Cycles", body: transferBody },
    async (request) => {
      const access = await member(request, ROLE.member);
      const body = parse(transferBody, request.body);
      await transferIssues(app.ctx, eventOrigin(request), access, request.params.cycleId, body.new_cycle_id);
      return { message: "Success" };
    },
  );

  type ModuleParams = ProjectParams & { moduleId: string };
  docs.add<ModuleParams>(
    app,
    "post",
    `${PROJECT}/modules/:moduleId/archive/`,
    { summary: "Archive a completed or cancelled module", tag: "Modules", empty: true },
    async (request, reply) => {
      const access = await member(request, ROLE.member);
      await archiveModule(app.ctx, eventOrigin(request), access, request.params.moduleId);
      return reply.status(204).send();
    },
  );
  docs.add<ProjectParams>(
    app,
    "get",
    `${PROJECT}/archived-modules/`,
    { summary: "List archived modules", tag: "Modules", paginated: true },
    async (request) => {
      const access = await member(request);
      const list = await listProjectModules(db, access, true);
      return paginateList(
        request.query,
        list.map((m) => publicize(m as unknown as Record<string, unknown>)),
      );
    },
  );
  docs.add<ModuleParams>(
    app,
    "delete",
    `${PROJECT}/archived-modules/:moduleId/unarchive/`,
    { summary: "Restore an archived module", tag: "Modules", empty: true },
    async (request, reply) => {
      const access = await member(request, ROLE.member);
      await restoreModule(app.ctx, eventOrigin(request), access, request.params.moduleId);
      return reply.status(204).send();
    },
  );
}
