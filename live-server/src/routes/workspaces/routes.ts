/**
 * Workspaces: create, read, update, delete, and the slug availability check. Invitations,
 * members and the caller's workspace user-properties live in their own modules
 * (invitation-routes.ts, member-routes.ts, user-properties-routes.ts), registered here.
 *
 * Who may do what (product-domain §6, workspace part, enforced here rather than only in the UI):
 * - GET /api/workspaces/:slug/ is open to every active member, guests included: the app shell
 *   needs the workspace's name and logo on every screen. The settings *page* stays admin/member.
 * - PATCH and DELETE of the workspace (general settings that change something): admin only.
 * - Member list: readable by guests (they see who they work with, e.g. in pickers); changing
 *   roles and removing members: admin only (member-routes.ts).
 * - Invitations: listing and sending need member or above (guests get 403).
 */
import { ROLE } from "@tideline/shared";
import { and, count, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { isUniqueViolation } from "../../db/errors.ts";
import { userProfiles, users, workspaceMembers, workspaces } from "../../db/schema.ts";
import { eventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { badRequest, parse } from "../../http/errors.ts";
import { requireUser, workspaceAccess } from "../../policies/access.ts";
import { presentWorkspace } from "../../presenters/workspace.ts";
import { invitationRoutes } from "./invitation-routes.ts";
import { memberRoutes } from "./member-routes.ts";
import { createWorkspaceBody, updateWorkspaceBody } from "./schema.ts";
import { createWorkspace, isSlugTaken, normalizeSlug, slugProblem, slugReserved, slugTaken } from "./service.ts";
import { workspaceUserPropertiesRoutes } from "./user-properties-routes.ts";

type SlugParams = { slug: string };

export async function workspacesRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.ctx;

  /** Available = well-formed, not reserved, not used. Needs a session (it would leak the list otherwise). */
  app.get<{ Querystring: { slug?: string } }>("/api/workspace-slug-check/", async (request) => {
    requireUser(request);
    const raw = request.query.slug;
    if (typeof raw !== "string" || raw.trim() === "") {
      throw badRequest("Give the workspace URL to check as ?slug=.", { slug: ["This field is required."] });
    }
    const slug = normalizeSlug(raw);
    if (slugProblem(slug)) return { status: false };
    return { status: !(await isSlugTaken(db, slug)) };
  });

  app.post("/api/workspaces/", async (request, reply) => {
    const user = requireUser(request);
    const body = parse(createWorkspaceBody, request.body);
    const slug = normalizeSlug(body.slug);
    const problem = slugProblem(slug);
    if (problem === "invalid") {
      throw badRequest(
        "The workspace URL can only have lowercase letters, digits and dashes (not at the start or end), at most 48 characters.",
        { slug: ["Use lowercase letters, digits and dashes only."] },
      );
    }
    if (problem === "reserved") throw slugReserved(slug);
    if (await isSlugTaken(db, slug)) throw slugTaken(slug);
    try {
      const { workspace, membership } = await db.transaction((tx) =>
        createWorkspace(tx, user.id, { name: body.name, slug, organizationSize: body.organization_size }),
      );
      return reply
        .status(201)
        .send(presentWorkspace(workspace, { owner: user, role: membership.role, total_members: 1 }));
    } catch (error) {
      // Two people racing for the same slug: the unique index decides.
      if (isUniqueViolation(error)) throw slugTaken(slug);
      throw error;
    }
  });

  app.get<{ Params: SlugParams }>("/api/workspaces/:slug/", async (request) => {
    const { workspace, membership } = await workspaceAccess(db, request, request.params.slug, ROLE.guest);
    const [owner] = await db.select().from(users).where(eq(users.id, workspace.ownerId)).limit(1);
    const [total] = await db
      .select({ n: count() })
      .from(workspaceMembers)
      .innerJoin(users, eq(users.id, workspaceMembers.memberId))
      .where(
        and(
          eq(workspaceMembers.workspaceId, workspace.id),
          eq(workspaceMembers.isActive, true),
          eq(users.isBot, false),
        ),
      );
    return presentWorkspace(workspace, { owner: owner ?? null, role: membership.role, total_members: total?.n ?? 0 });
  });

  app.patch<{ Params: SlugParams }>("/api/workspaces/:slug/", async (request) => {
    const { user, workspace, membership } = await workspaceAccess(db, request, request.params.slug, ROLE.admin);
    const raw = request.body;
    if (raw && typeof raw === "object" && "slug" in raw) {
      // Links, bookmarks and asset paths carry the slug, so it is fixed at creation.
      throw badRequest("The workspace URL cannot be changed after the workspace is created.", {
        slug: ["The workspace URL cannot be changed."],
      });
    }
    const body = parse(updateWorkspaceBody, raw);
    const [updated] = await db
      .update(workspaces)
      .set({
        ...(body.name === undefined ? {} : { name: body.name }),
        ...(body.logo_url === undefined ? {} : { logoUrl: body.logo_url }),
        ...(body.logo_props === undefined ? {} : { logoProps: body.logo_props }),
        ...(body.organization_size === undefined ? {} : { organizationSize: body.organization_size }),
        ...(body.timezone === undefined ? {} : { timezone: body.timezone }),
        updatedById: user.id,
      })
      .where(eq(workspaces.id, workspace.id))
      .returning();
    if (!updated) throw new Error("workspace update failed");
    return presentWorkspace(updated, { role: membership.role });
  });

  app.delete<{ Params: SlugParams }>("/api/workspaces/:slug/", async (request, reply) => {
    const { workspace } = await workspaceAccess(db, request, request.params.slug, ROLE.admin);
    await transactionWithEvents(db, app.ctx.events, eventOrigin(request), async (tx, emit) => {
      // Nobody should land on a workspace that is gone; the app then falls back to another one.
      await tx
        .update(userProfiles)
        .set({ lastWorkspaceId: null })
        .where(eq(userProfiles.lastWorkspaceId, workspace.id));
      // Members, invitations, projects and everything inside go with it (ON DELETE CASCADE).
      await tx.delete(workspaces).where(eq(workspaces.id, workspace.id));
      // Open live connections inside it are re-checked (and closed).
      emit(
        "workspace.deleted",
        { workspaceId: workspace.id, projectId: null, entityId: workspace.id },
        {
          id: workspace.id,
          slug: workspace.slug,
        },
      );
    });
    return reply.status(204).send();
  });

  await invitationRoutes(app);
  await memberRoutes(app);
  await workspaceUserPropertiesRoutes(app);
}
