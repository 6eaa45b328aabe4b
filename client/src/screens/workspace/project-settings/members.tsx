import { ROLE } from "@tideline/shared";
import { DoorOpen, UserMinus, UserPlus, Users } from "lucide-react";
import { type FormEvent, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { useSnapshot } from "valtio";
import { Avatar, Banner, Button, EmptyState, Modal, ModalFooter } from "../../../components/ui";
import { errorMessage } from "../../../lib/api";
import { forgetFavorite } from "../../../stores/favorites";
import {
  addProjectMembers,
  fetchProjectMembers,
  fetchWorkspaceMembers,
  leaveProject,
  memberName,
  members,
  type ProjectMember,
  removeProjectMember,
  updateProjectMemberRole,
} from "../../../stores/members";
import { session } from "../../../stores/session";
import { ConfirmModal } from "../components/confirm-modal";
import { focusOnMount } from "../components/focus";
import { MenuItem } from "../components/menu";
import { RoleSelect, useRoleLabel } from "../components/role-select";
import { filterPeople, MemberRow, MemberSearch, RowActionsMenu, SettingsHeading } from "../components/settings-parts";
import { SkeletonRows } from "../components/skeleton";
import { can } from "../permissions";
import { useCurrentWorkspace } from "../use-workspace";
import { useProjectSettings } from "./layout";

/** Project settings → Members: who is in, their roles; add, change, remove, leave. */
export function ProjectMembersSettings() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { slug } = useCurrentWorkspace();
  const { project, projectRole } = useProjectSettings();
  const snap = useSnapshot(members);
  const me = useSnapshot(session).user;
  const roleLabel = useRoleLabel();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<ProjectMember | null>(null);
  const [leaving, setLeaving] = useState(false);
  const [query, setQuery] = useState("");
  const isAdmin = can.editProject(projectRole);

  useEffect(() => {
    void fetchProjectMembers(slug, project.id).catch(() => undefined);
  }, [slug, project.id]);

  const list = snap.byProject[project.id];
  const shown = useMemo(
    () => filterPeople(list, query, (m) => ({ name: memberName(m.member_details), email: m.member_details.email })),
    [list, query],
  );

  return (
    <>
      <SettingsHeading title={t("projects.settings.members")} hint={t("projects.members.hint")}>
        <Button variant="secondary" onClick={() => setLeaving(true)}>
          <DoorOpen size={14} aria-hidden />
          {t("projects.members.leave")}
        </Button>
        {isAdmin ? (
          <Button onClick={() => setAdding(true)}>
            <UserPlus size={14} aria-hidden />
            {t("projects.members.add")}
          </Button>
        ) : null}
      </SettingsHeading>

      <div className="member-list-toolbar">
        <h2>{t("projects.members.count", { count: list?.length ?? 0 })}</h2>
        <MemberSearch label={t("projects.members.search")} value={query} onChange={setQuery} />
      </div>

      <div className="member-list">
        {shown === undefined ? (
          <SkeletonRows count={3} height={52} />
        ) : shown.length === 0 ? (
          <EmptyState icon={Users} title={t("projects.members.none")} />
        ) : (
          shown.map((m) => {
            const isMe = m.member === me?.id;
            const name = memberName(m.member_details);
            return (
              <MemberRow
                key={m.id}
                avatarName={name}
                avatarUrl={m.member_details.avatar_url}
                name={name}
                youBadge={isMe ? t("workspace.common.you") : null}
                detail={m.member_details.email}
                role={
                  isAdmin ? (
                    <RoleSelect
                      label={t("projects.members.roleOf", { name })}
                      value={m.role}
                      max={projectRole ?? ROLE.guest}
                      onChange={(role) => void updateProjectMemberRole(slug, project.id, m.id, role)}
                    />
                  ) : (
                    <span className="member-role-static">{roleLabel(m.role)}</span>
                  )
                }
                actions={
                  isAdmin && !isMe ? (
                    <RowActionsMenu label={t("projects.members.actionsFor", { name })}>
                      <MenuItem danger icon={<UserMinus size={14} />} onSelect={() => setRemoving(m)}>
                        {t("projects.members.remove")}
                      </MenuItem>
                    </RowActionsMenu>
                  ) : null
                }
              />
            );
          })
        )}
      </div>

      {adding ? <AddMembersModal onClose={() => setAdding(false)} /> : null}

      <ConfirmModal
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={t("projects.members.removeTitle", { name: removing ? memberName(removing.member_details) : "" })}
        description={t("projects.members.removeDescription", { project: project.name })}
        confirmLabel={t("projects.members.remove")}
        onConfirm={async () => {
          if (removing && (await removeProjectMember(slug, project.id, removing.id))) setRemoving(null);
        }}
      />
      <ConfirmModal
        open={leaving}
        onOpenChange={setLeaving}
        title={t("projects.members.leaveTitle", { name: project.name })}
        description={
          project.network === 0 ? t("projects.members.leavePrivate") : t("projects.members.leaveDescription")
        }
        confirmLabel={t("projects.members.leave")}
        onConfirm={async () => {
          if (me && (await leaveProject(slug, project.id, me.id))) {
            forgetFavorite(slug, project.id);
            setLeaving(false);
            navigate(`/${slug}/projects/`);
          }
        }}
      />
    </>
  );
}

/** Pick workspace members who aren't in the project yet, each with a role. */
function AddMembersModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { slug } = useCurrentWorkspace();
  const { project, projectRole } = useProjectSettings();
  const snap = useSnapshot(members);
  const [picked, setPicked] = useState<Record<string, number>>({});
  const [query, setQuery] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    void fetchWorkspaceMembers(slug).catch(() => undefined);
  }, [slug]);

  const inProject = new Set((snap.byProject[project.id] ?? []).map((m) => m.member));
  const workspaceMembers = snap.bySlug[slug];
  const candidates = (workspaceMembers ?? []).filter((m) => !inProject.has(m.member.id));
  const shown = filterPeople(candidates, query, (m) => ({ name: memberName(m.member), email: m.member.email })) ?? [];
  const count = Object.keys(picked).length;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (count === 0 || busy) return;
    setBusy(true);
    setError(null);
    try {
      await addProjectMembers(
        slug,
        project.id,
        Object.entries(picked).map(([member_id, role]) => ({ member_id, role })),
      );
      onClose();
    } catch (err) {
      setError(await errorMessage(err));
      setBusy(false);
    }
  }

  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={t("projects.members.addTitle")}
      description={t("projects.members.addHint", { name: project.name })}
      width={560}
    >
      <form onSubmit={submit} className="stack">
        {error ? <Banner>{error}</Banner> : null}
        <MemberSearch
          label={t("projects.members.search")}
          value={query}
          onChange={setQuery}
          inputRef={focusOnMount}
          style={{ width: "100%" }}
        />
        <div className="pick-list">
          {workspaceMembers === undefined ? (
            <SkeletonRows count={3} height={44} />
          ) : shown.length === 0 ? (
            <p className="muted" style={{ padding: 16, textAlign: "center" }}>
              {candidates.length === 0 ? t("projects.members.everyoneIn") : t("projects.members.noMatch")}
            </p>
          ) : (
            shown.map((m) => {
              const checked = picked[m.member.id] !== undefined;
              // A project role never exceeds the person's workspace role nor the inviter's own.
              const max = Math.min(m.role, projectRole ?? ROLE.guest);
              return (
                <div key={m.id} className="pick-row">
                  <input
                    type="checkbox"
                    id={`pick-${m.id}`}
                    checked={checked}
                    onChange={(e) =>
                      setPicked((current) => {
                        const next = { ...current };
                        if (e.target.checked) next[m.member.id] = Math.min(ROLE.member, max);
                        else delete next[m.member.id];
                        return next;
                      })
                    }
                  />
                  <label htmlFor={`pick-${m.id}`} className="row" style={{ flex: 1, minWidth: 0, cursor: "pointer" }}>
                    <Avatar name={memberName(m.member)} src={m.member.avatar_url} size={26} />
                    <span className="member-info">
                      <span className="member-name">{memberName(m.member)}</span>
                      <span className="member-email">{m.member.email}</span>
                    </span>
                  </label>
                  <RoleSelect
                    label={t("projects.members.roleOf", { name: memberName(m.member) })}
                    value={picked[m.member.id] ?? Math.min(ROLE.member, max)}
                    max={max}
                    disabled={!checked}
                    onChange={(role) => setPicked((current) => ({ ...current, [m.member.id]: role }))}
                  />
                </div>
              );
            })
          )}
        </div>
        <ModalFooter>
          <Button variant="secondary" onClick={onClose}>
            {t("workspace.common.cancel")}
          </Button>
          <Button type="submit" loading={busy} disabled={count === 0}>
            {count > 0 ? t("projects.members.addCount", { count }) : t("projects.members.add")}
          </Button>
        </ModalFooter>
      </form>
    </Modal>
  );
}
