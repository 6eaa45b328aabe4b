/**
 * A member's assigned, created and subscribed work items (the profile's list tabs): the board of
 * every project the caller is in (screens/work-items/multi-project-board), narrowed to the
 * member's work — every layout, filters, grouping and display properties, saved per caller and
 * tab (workspace-views/profile-{tab}/user-properties/). Only the caller's own projects show:
 * another member's work in a project the caller isn't in stays out, as on the server.
 */
import { useTranslation } from "react-i18next";
import { workspaceViewKey } from "../../stores/work-item-view";
import { useMemberWorkScope } from "../work-items/member-work-scope";
import { MultiProjectBoard } from "../work-items/multi-project-board";
import { useProfileOutlet } from "./member-profile-layout";
import type { IssueTab } from "./profile-logic";

export function AssignedIssuesScreen() {
  return <ProfileWork tab="assigned" />;
}
export function CreatedIssuesScreen() {
  return <ProfileWork tab="created" />;
}
export function SubscribedIssuesScreen() {
  return <ProfileWork tab="subscribed" />;
}

function ProfileWork({ tab }: { tab: IssueTab }) {
  const { t } = useTranslation();
  const { slug, userId, name, isMe } = useProfileOutlet();
  const scope = useMemberWorkScope(slug, tab, userId);
  return (
    <MultiProjectBoard
      slug={slug}
      viewKey={workspaceViewKey(slug, `profile-${tab}`)}
      scope={scope}
      renderHeader={({ controls, total }) => (
        <div className="mp-board-toolbar">
          <span className="mp-list-count muted" data-testid="profile-list-count">
            {total !== null ? t("memberProfile.list.count", { count: total }) : ""}
          </span>
          <div className="mp-board-controls">{controls}</div>
        </div>
      )}
      empty={{ title: t(`memberProfile.list.empty.${tab}`, { name: isMe ? t("memberProfile.you") : name }) }}
    />
  );
}
