/**
 * A work item's description history (issue_description_versions), recorded the way page
 * versions are (routes/pages/document.ts):
 * - every REST write of the description (create with one, PATCH, publishing a draft) records
 *   the new description in the writing transaction;
 * - while it is edited live, the store hook (live/storage.ts) records the stored description
 *   at most once per DESCRIPTION_VERSION_INTERVAL_MS, and only when it differs from the newest
 *   version.
 * The newest DESCRIPTION_VERSIONS_KEPT stay. Read by routes/issue-details/description-versions.ts.
 */
import { DESCRIPTION_VERSION_INTERVAL_MS, DESCRIPTION_VERSIONS_KEPT } from "@tideline/shared";
import { and, desc, eq, notInArray } from "drizzle-orm";
import type { Db, DbOrTx } from "../db/client.ts";
import { issueDescriptionVersions, issues } from "../db/schema.ts";

export type DescriptionVersionRow = typeof issueDescriptionVersions.$inferSelect;

type IssueRef = { id: string; workspaceId: string; projectId: string };
type Description = { html: string; stripped: string; state: Uint8Array | null };

/** Empty descriptions are not history worth a row. */
const isEmpty = (d: Description) => d.stripped.trim() === "" && /^(<p><\/p>|)$/.test(d.html.trim());

/** Record `description` as the item's newest version (in the caller's transaction). */
export async function recordDescriptionVersion(
  tx: DbOrTx,
  issue: IssueRef,
  description: Description,
  actorId: string | null,
): Promise<DescriptionVersionRow | null> {
  if (isEmpty(description)) return null;
  const [version] = await tx
    .insert(issueDescriptionVersions)
    .values({
      workspaceId: issue.workspaceId,
      projectId: issue.projectId,
      issueId: issue.id,
      ownedById: actorId,
      descriptionBinary: description.state,
      descriptionHtml: description.html,
      descriptionStripped: description.stripped,
      lastSavedAt: new Date(),
      createdById: actorId,
      updatedById: actorId,
    })
    .returning();
  const kept = tx
    .select({ id: issueDescriptionVersions.id })
    .from(issueDescriptionVersions)
    .where(eq(issueDescriptionVersions.issueId, issue.id))
    .orderBy(desc(issueDescriptionVersions.lastSavedAt), desc(issueDescriptionVersions.createdAt))
    .limit(DESCRIPTION_VERSIONS_KEPT);
  await tx
    .delete(issueDescriptionVersions)
    .where(and(eq(issueDescriptionVersions.issueId, issue.id), notInArray(issueDescriptionVersions.id, kept)));
  return version ?? null;
}

/**
 * After the live layer stored an item's description: record it when the newest version is
 * older than the interval and says something else. Returns the new version, or null.
 */
export async function maybeRecordWhileEditing(
  db: Db,
  issueId: string,
  actorId: string | null,
): Promise<DescriptionVersionRow | null> {
  return db.transaction(async (tx) => {
    const [issue] = await tx.select().from(issues).where(eq(issues.id, issueId)).for("update");
    if (!issue || issue.deletedAt || issue.isDraft) return null;
    const [latest] = await tx
      .select({ lastSavedAt: issueDescriptionVersions.lastSavedAt, html: issueDescriptionVersions.descriptionHtml })
      .from(issueDescriptionVersions)
      .where(eq(issueDescriptionVersions.issueId, issueId))
      .orderBy(desc(issueDescriptionVersions.lastSavedAt))
      .limit(1);
    if (latest && Date.now() - latest.lastSavedAt.getTime() < DESCRIPTION_VERSION_INTERVAL_MS) return null;
    if (latest && latest.html === issue.descriptionHtml) return null;
    return recordDescriptionVersion(
      tx,
      issue,
      { html: issue.descriptionHtml, stripped: issue.descriptionStripped, state: issue.descriptionBinary },
      actorId ?? issue.updatedById,
    );
  });
}
