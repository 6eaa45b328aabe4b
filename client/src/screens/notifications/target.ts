/**
 * Where a notification's entry leads. One about an intake request not accepted yet
 * (`is_inbox_issue`) opens the request in its project's intake: its work item answers 404 as a
 * work item until it is accepted. The reference's client likewise shows the intake request for
 * these, the work item for the others. Pure, so unit-tested.
 */
import type { Notification } from "../../stores/notifications";

export function notificationTarget(slug: string, n: Notification): string | null {
  const requestId = n.data.intake?.id;
  const projectId = n.project ?? n.data.issue?.project_id;
  if (n.is_inbox_issue && requestId && projectId) {
    return `/${slug}/projects/${projectId}/intake/?request=${encodeURIComponent(requestId)}`;
  }
  const issue = n.data.issue;
  return issue ? `/${slug}/browse/${issue.identifier}-${issue.sequence_id}/` : null;
}
