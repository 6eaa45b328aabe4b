/**
 * Module links: GET, POST module-links/, PATCH, DELETE module-links/{linkId}/ under a module.
 * Only absolute http(s) URLs are kept (400 otherwise, nothing stored), as for work-item links.
 * Guests read; changes need member. Events module.link.created / updated / deleted.
 */
import { ROLE } from "@tideline/shared";
import { and, desc, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { DbOrTx } from "../../db/client.ts";
import { moduleLinks } from "../../db/schema.ts";
import { eventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { notFound, parse } from "../../http/errors.ts";
import { isUuid } from "../../http/ids.ts";
import { projectAccess } from "../../policies/access.ts";
import { loadActors } from "../issue-details/common.ts";
import { PROJECT_PATH, type ProjectParams } from "../issues/common.ts";
import { type ModuleLinkRow, presentModuleLink } from "./presenter.ts";
import { createLinkBody, updateLinkBody } from "./schema.ts";
import { getModule } from "./service.ts";

type ModuleParams = ProjectParams & { moduleId: string };
type LinkParams = ModuleParams & { linkId: string };

export async function presentLinks(db: DbOrTx, rows: ModuleLinkRow[]) {
  const actors = await loadActors(
    db,
    rows.map((r) => r.createdById),
  );
  return rows.map((r) => presentModuleLink(r, (r.createdById && actors.get(r.createdById)) || null));
}

/** A module's links, newest first. */
export async function listLinks(db: DbOrTx, moduleId: string) {
  const rows = await db
    .select()
    .from(moduleLinks)
    .where(eq(moduleLinks.moduleId, moduleId))
    .orderBy(desc(moduleLinks.createdAt));
  return presentLinks(db, rows);
}

const scopeOf = (l: ModuleLinkRow) => ({ workspaceId: l.workspaceId, projectId: l.projectId, entityId: l.id });

export async function moduleLinkRoutes(app: FastifyInstance): Promise<void> {
  const { db, events } = app.ctx;
  const LINKS = `${PROJECT_PATH}/modules/:moduleId/module-links`;
  const access = (request: Parameters<typeof projectAccess>[1], params: ProjectParams, write: boolean) =>
    projectAccess(db, request, params.slug, params.projectId, write ? { minRole: ROLE.member } : {});

  app.get<{ Params: ModuleParams }>(`${LINKS}/`, async (request) => {
    const a = await access(request, request.params, false);
    const module = await getModule(db, a, request.params.moduleId);
    return listLinks(db, module.id);
  });

  app.post<{ Params: ModuleParams }>(`${LINKS}/`, async (request, reply) => {
    const a = await access(request, request.params, true);
    const body = parse(createLinkBody, request.body);
    const link = await transactionWithEvents(db, events, eventOrigin(request), async (tx, emit) => {
      const module = await getModule(tx, a, request.params.moduleId);
      const [row] = await tx
        .insert(moduleLinks)
        .values({
          workspaceId: module.workspaceId,
          projectId: module.projectId,
          moduleId: module.id,
          url: body.url,
          title: body.title || null,
          metadata: body.metadata ?? {},
          createdById: a.user.id,
          updatedById: a.user.id,
        })
        .returning();
      if (!row) throw new Error("link insert failed");
      const [presented] = await presentLinks(tx, [row]);
      if (!presented) throw new Error("link not presented");
      emit("module.link.created", scopeOf(row), presented);
      return presented;
    });
    return reply.status(201).send(link);
  });

  const findLink = async (tx: DbOrTx, moduleId: string, linkId: string) => {
    if (!isUuid(linkId)) throw notFound("Link");
    const [row] = await tx
      .select()
      .from(moduleLinks)
      .where(and(eq(moduleLinks.id, linkId), eq(moduleLinks.moduleId, moduleId)))
      .limit(1);
    if (!row) throw notFound("Link");
    return row;
  };

  app.patch<{ Params: LinkParams }>(`${LINKS}/:linkId/`, async (request) => {
    const a = await access(request, request.params, true);
    const body = parse(updateLinkBody, request.body);
    return transactionWithEvents(db, events, eventOrigin(request), async (tx, emit) => {
      const module = await getModule(tx, a, request.params.moduleId);
      const current = await findLink(tx, module.id, request.params.linkId);
      const [row] = await tx
        .update(moduleLinks)
        .set({
          url: body.url ?? current.url,
          title: body.title === undefined ? current.title : body.title || null,
          metadata: body.metadata ?? current.metadata,
          updatedById: a.user.id,
          updatedAt: new Date(),
        })
        .where(eq(moduleLinks.id, current.id))
        .returning();
      if (!row) throw notFound("Link");
      const [presented] = await presentLinks(tx, [row]);
      if (!presented) throw new Error("link not presented");
      emit("module.link.updated", scopeOf(row), presented);
      return presented;
    });
  });

  app.delete<{ Params: LinkParams }>(`${LINKS}/:linkId/`, async (request, reply) => {
    const a = await access(request, request.params, true);
    await transactionWithEvents(db, events, eventOrigin(request), async (tx, emit) => {
      const module = await getModule(tx, a, request.params.moduleId);
      const current = await findLink(tx, module.id, request.params.linkId);
      const [presented] = await presentLinks(tx, [current]);
      await tx.delete(moduleLinks).where(eq(moduleLinks.id, current.id));
      emit("module.link.deleted", scopeOf(current), presented ?? { id: current.id });
    });
    return reply.status(204).send();
  });
}
