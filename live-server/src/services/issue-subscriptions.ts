/**
 * Who follows a work item. Its creator, its assignees and everyone who comments are
 * subscribed automatically; anyone in the project may subscribe or unsubscribe by hand.
 */
import type { Tx } from "../db/client.ts";
import { issueSubscribers } from "../db/schema.ts";

/** Subscribe users (idempotent). */
export async function ensureSubscribed(
  tx: Tx,
  issue: { id: string; workspaceId: string; projectId: string },
  userIds: readonly (string | null | undefined)[],
): Promise<void> {
  const unique = [...new Set(userIds.filter((id): id is string => Boolean(id)))];
  if (unique.length === 0) return;
  await tx
    .insert(issueSubscribers)
    .values(
      unique.map((subscriberId) => ({
        issueId: issue.id,
        subscriberId,
        workspaceId: issue.workspaceId,
        projectId: issue.projectId,
      })),
    )
    .onConflictDoNothing();
}
