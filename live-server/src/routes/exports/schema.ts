/** Request bodies of the export calls (unknown keys dropped, as everywhere). */
import { z } from "zod";
import { EXPORT_PROVIDERS } from "../../exports/writers.ts";

/** POST export-issues/: the reference's body ({provider, project, multiple}). */
export const createExportBody = z.object({
  // Checked by the service so an unknown provider gets the reference's message.
  provider: z.string().optional(),
  project: z.array(z.uuid("Expected a project id")).max(1000).optional().default([]),
  multiple: z.boolean().optional().default(false),
});
export type CreateExportBody = z.output<typeof createExportBody>;

export const isProvider = (value: unknown): value is (typeof EXPORT_PROVIDERS)[number] =>
  typeof value === "string" && (EXPORT_PROVIDERS as readonly string[]).includes(value);
