/**
 * Projects API under /api/workspaces/:slug: create, list, read, settings, archive, members,
 * joining and project favorites. Who may do what (product-domain §6):
 * - creating a project, checking identifiers: workspace member or admin;
 * - reading a project: its members, and any workspace member for a public one (join preview);
 * - project settings (general, features), archive, delete, member management: project admin;
 * - member list and own membership: every project role, guests included.
 * Private projects don't exist for non-members (404), workspace admins included.
 * Feature flags: only the features Tideline has (AVAILABLE_PROJECT_FEATURES, shared) are reported
 * as they are stored; the others read false and switching one on is 400 FEATURE_UNAVAILABLE.
 */
import { ROLE } from "@tideline/shared";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { eventOrigin } from "../../events/bus.ts";
import { notFound, parse } from "../../http/errors.ts";
import { requireUuid } from "../../http/ids.ts";
import { projectAccess, workspaceAccess } from "../../policies/access.ts";
import { recordProjectVisit } from "../recent-visits/service.ts";
import { addMembers, getMember, leaveProject, listMembers, removeMember, updateMemberRole } from "./members.ts";
import { presentOwnMembership } from "./presenter.ts";
import {
  addMembersBody,
  createProjectBody,
  favoriteProjectBody,
  identifierQuery,
  joinProjectsBody,
  listProjectsQuery,
  membersQuery,
  statFieldsOf,
  statsQuery,
  updateMemberBody,
  updateProjectBody,
} from "./schema.ts";
import {
  addFavoriteProject,
  archiveProject,
  createProject,
  deleteProject,
  identifierStatus,
  joinProjects,
  listFavoriteProjects,
  listProjectDetails,
  listProjects,
  projectDetail,
  projectStats,
  removeFavoriteProject,
  restoreProject,
  updateProject,
} from "./service.ts";

type SlugParams = { slug: string };
type ProjectParams = SlugParams & { projectId: string };
type MemberParams = ProjectParams & { memberId: string };

const WS = "/api/workspaces/:slug";
const PROJECT = `${WS}/projects/:projectId`;

export async function projectsRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.ctx;

  /** The caller as an active project member (guest and up); public non-members get 403, private 404. */
  const asMember = (request: FastifyRequest<{ Params: ProjectParams }>, minRole: 5 | 15 | 20 = ROLE.guest) =>
    projectAccess(db, request, request.params.slug, request.params.projectId, { minRole, allowNonMember: true });

  // ───────── projects ─────────

  app.post<{ Params: SlugParams }>(`${WS}/projects/`, async (request, reply) => {
    const ws = await workspaceAccess(db, request, request.params.slug, ROLE.member);
    const body = parse(createProjectBody, request.body);
    const projectId = await createProject(app.ctx, eventOrigin(request), ws, body);
    return reply.status(201).send(await projectDetail(db, ws.workspace.id, ws.user.id, projectId));
  });

  app.get<{ Params: SlugParams }>(`${WS}/projects/`, async (request) => {
    const ws = await workspaceAccess(db, request, request.params.slug);
    const query = parse(listProjectsQuery, request.query);
    return listProjects(db, ws, query.archived === "true");
  });

  app.get<{ Params: SlugParams }>(`${WS}/projects/details/`, async (request) => {
    const ws = await workspaceAccess(db, request, request.params.slug);
    const query = parse(listProjectsQuery, request.query);
    return listProjectDetails(db, ws, query.archived === "true");
  });

  // The spec writes this one without a trailing slash; every route answers both (app.ts).
  app.get<{ Params: SlugParams }>(`${WS}/project-identifiers/`, async (request) => {
    const ws = await workspaceAccess(db, request, request.params.slug, ROLE.member);
    const { name } = parse(identifierQuery, request.query);
    return identifierStatus(db, ws.workspace.id, name);
  });

  app.get<{ Params: SlugParams }>(`${WS}/project-stats/`, async (request) => {
    const ws = await workspaceAccess(db, request, request.params.slug);
    const query = parse(statsQuery, request.query);
    return projectStats(db, ws, query.project_ids, statFieldsOf(query.fields));
  });

  app.get<{ Params: ProjectParams }>(`${PROJECT}/`, async (request) => {
    const access = await projectAccess(db, request, request.params.slug, request.params.projectId, {
      allowNonMember: true,
    });
    const detail = await projectDetail(db, access.workspace.id, access.user.id, access.project.id);
    // A member opening a live project: a recent visit (the home's Recents), as the reference records it.
    await recordProjectVisit(db, request.log, access);
    return detail;
  });

  app.patch<{ Params: ProjectParams }>(`${PROJECT}/`, async (request) => {
    const access = await asMember(request, ROLE.admin);
    const body = parse(updateProjectBody, request.body);
    await updateProject(app.ctx, eventOrigin(request), access, body);
    return projectDetail(db, access.workspace.id, access.user.id, access.project.id);
  });

  app.delete<{ Params: ProjectParams }>(`${PROJECT}/`, async (request, reply) => {
    const access = await asMember(request, ROLE.admin);
    await deleteProject(app.ctx, eventOrigin(request), access.project);
    return reply.status(204).send();
  });

  app.post<{ Params: ProjectParams }>(`${PROJECT}/archive/`, async (request) => {
    const access = await asMember(request, ROLE.admin);
    return { archived_at: await archiveProject(app.ctx, eventOrigin(request), access) };
  });

  app.delete<{ Params: ProjectParams }>(`${PROJECT}/archive/`, async (request, reply) => {
    const access = await asMember(request, ROLE.admin);
    await restoreProject(db, access);
    return reply.status(204).send();
  });

  // ───────── members ─────────

  app.get<{ Params: ProjectParams }>(`${PROJECT}/members/`, async (request) => {
    const access = await asMember(request);
    const query = parse(membersQuery, request.query);
    return listMembers(db, access.project, { excludeGuests: query.exclude_guests === "true" });
  });

  app.post<{ Params: ProjectParams }>(`${PROJECT}/members/`, async (request, reply) => {
    const access = await asMember(request, ROLE.admin);
    const { members } = parse(addMembersBody, request.body);
    return reply.status(201).send(await addMembers(app.ctx, eventOrigin(request), access, members));
  });

  app.post<{ Params: ProjectParams }>(`${PROJECT}/members/leave/`, async (request, reply) => {
    const access = await asMember(request);
    await leaveProject(app.ctx, eventOrigin(request), access);
    return reply.status(204).send();
  });

  app.get<{ Params: ProjectParams }>(`${PROJECT}/project-members/me/`, async (request) => {
    const access = await asMember(request);
    if (!access.projectMembership) throw notFound("Member");
    return presentOwnMembership(access.projectMembership);
  });

  app.get<{ Params: MemberParams }>(`${PROJECT}/members/:memberId/`, async (request) => {
    const access = await asMember(request);
    return getMember(db, access.project, requireUuid(request.params.memberId, "Member"));
  });

  app.patch<{ Params: MemberParams }>(`${PROJECT}/members/:memberId/`, async (request) => {
    const access = await asMember(request, ROLE.admin);
    const memberId = requireUuid(request.params.memberId, "Member");
    const { role } = parse(updateMemberBody, request.body);
    return updateMemberRole(app.ctx, eventOrigin(request), access, memberId, role);
  });

  app.delete<{ Params: MemberParams }>(`${PROJECT}/members/:memberId/`, async (request, reply) => {
    const access = await asMember(request, ROLE.admin);
    await removeMember(app.ctx, eventOrigin(request), access, requireUuid(request.params.memberId, "Member"));
    return reply.status(204).send();
  });

  // ───────── joining ─────────

  const join = async (request: FastifyRequest<{ Params: SlugParams }>) => {
    const ws = await workspaceAccess(db, request, request.params.slug);
    const { project_ids } = parse(joinProjectsBody, request.body);
    return joinProjects(app.ctx, eventOrigin(request), ws, project_ids);
  };
  app.post<{ Params: SlugParams }>(`${WS}/projects/join/`, async (request, reply) =>
    reply.status(201).send(await join(request)),
  );
  app.post<{ Params: SlugParams }>("/api/users/me/workspaces/:slug/projects/invitations/", async (request, reply) =>
    reply.status(201).send(await join(request)),
  );

  // ───────── favorites ─────────

  app.get<{ Params: SlugParams }>(`${WS}/user-favorite-projects/`, async (request) => {
    const ws = await workspaceAccess(db, request, request.params.slug);
    return listFavoriteProjects(db, ws);
  });

  app.post<{ Params: SlugParams }>(`${WS}/user-favorite-projects/`, async (request, reply) => {
    const ws = await workspaceAccess(db, request, request.params.slug);
    const { project } = parse(favoriteProjectBody, request.body);
    const access = await projectAccess(db, request, ws.workspace.slug, project, {
      minRole: ROLE.guest,
      allowNonMember: true,
    });
    const { created, favorite } = await addFavoriteProject(app.ctx, eventOrigin(request), access);
    return reply.status(created ? 201 : 200).send(favorite);
  });

  app.delete<{ Params: ProjectParams }>(`${WS}/user-favorite-projects/:projectId/`, async (request, reply) => {
    const ws = await workspaceAccess(db, request, request.params.slug);
    await removeFavoriteProject(app.ctx, eventOrigin(request), ws, requireUuid(request.params.projectId, "Favorite"));
    return reply.status(204).send();
  });
}
