/**
 * Uploaded files: work-item attachments, workspace/project/user assets, and the local storage's
 * upload endpoint. The storage driver comes from config.storage and lives in this plugin.
 */
import fastifyMultipart from "@fastify/multipart";
import type { FastifyInstance } from "fastify";
import { createStorage } from "../../storage/index.ts";
import { attachmentRoutes } from "./attachments.ts";
import { genericAssetRoutes } from "./generic.ts";
import { uploadRoutes } from "./upload.ts";

export async function assetsRoutes(app: FastifyInstance): Promise<void> {
  // Kept here until another module needs it; then it belongs on app.ctx.
  const storage = createStorage(app.ctx.config);
  // Registered inside this plugin, so multipart bodies are parsed only by these routes.
  await app.register(fastifyMultipart);
  uploadRoutes(app, storage);
  attachmentRoutes(app, storage);
  genericAssetRoutes(app, storage);
}
