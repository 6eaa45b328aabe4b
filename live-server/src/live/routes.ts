/**
 * HTTP side of the live layer: the WebSocket endpoints GET /live and GET /live/collaboration
 * (the reference web client's page editor, collaboration.ts), authorised per document by the
 * live service's hooks, not by the /api session check, and the metrics of this instance for
 * instance admins (GET /api/instances/live-metrics/).
 */
import fastifyWebsocket from "@fastify/websocket";
import { LIVE_LIMITS, LIVE_PATH } from "@tideline/shared";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { instanceAdmins } from "../db/schema.ts";
import { forbidden } from "../http/errors.ts";
import { requireUser } from "../policies/access.ts";
import { COLLABORATION_PATH } from "./collaboration.ts";

export async function liveRoutes(app: FastifyInstance): Promise<void> {
  const { live, db } = app.ctx;
  await app.register(fastifyWebsocket, {
    // Frames above the document limit can't be valid updates; leave room for the envelope.
    options: { maxPayload: LIVE_LIMITS.maxDocumentBytes + 1024 * 1024 },
  });
  // Store every document and close the sockets while the database is still open.
  app.addHook("preClose", () => live.close());

  app.get(LIVE_PATH, { websocket: true }, (socket, request) => live.handleSocket(socket, request));
  // The reference web client's page editor (collaboration.ts): the same documents, named by page id.
  app.get(COLLABORATION_PATH, { websocket: true }, (socket, request) =>
    live.handleSocket(socket, request, { collaboration: true }),
  );

  app.get("/api/instances/live-metrics/", async (request) => {
    const user = requireUser(request);
    const [admin] = await db.select().from(instanceAdmins).where(eq(instanceAdmins.userId, user.id)).limit(1);
    if (!admin) throw forbidden("Only the instance administrator can do this.");
    return live.metrics();
  });
}
