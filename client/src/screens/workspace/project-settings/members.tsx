import { ROLE } from "@tideline/shared";
import { DoorOpen, Ellipsis, Search, UserMinus, UserPlus, Users } from "lucide-react";
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
import { Menu, MenuItem } from "../components/menu";
import { RoleSelect, useRoleLabel } from "../components/role-select";
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
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    if (!list || !q) return list;
    return list.filter(
      (m) => memberName(m.member_details).toLowerCase().includes(q) || m.member_details.email.toLowerCase().includes(q),
    );
  }, [list, query]);

  return (
    <>
      <div className="settings-heading">
        <div>
          <h1>{t("projects.settings.members")}</h1>
          <p className="muted">{t("projects.members.hint")}</p>
        </div>
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
      </div>

      <div className="member-list-toolbar">
        <h2>{t("projects.members.count", { count: list?.length ?? 0 })}</h2>
        <div className="search-input">
          <Search size={14} aria-hidden />
          <input
            className="input"
            type="search"
            placeholder={t("projects.members.search")}
            aria-label={t("projects.members.search")}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        </div>
      </div>

      <div className="member-list">
        {shown === undefined ? (
          <SkeletonRows count={3} height={52} />
        ) : shown.length === 0 ? (
          <EmptyState icon={Users} title={t("projects.members.none")} />
        ) : (
          shown.map((m) => {
            const isMe = m.member === me?.id;
            return (
              <div key={m.id} className="member-row">
                <Avatar name={memberName(m.member_details)} src={m.member_details.avatar_url} size={30} />
                <div className="member-info">
                  <span className="member-name">
                    {memberName(m.member_details)}
                    {isMe ? <span className="badge you-badge">{t("workspace.common.you")}</span> : null}
                  </span>
                  <span className="member-email">{m.member_details.email}</span>
                </div>
                {isAdmin ? (
                  <RoleSelect
                    label={t("projects.members.roleOf", { name: memberName(m.member_details) })}
                    value={m.role}
                    max={projectRole ?? ROLE.guest}
                    onChange={(role) => void updateProjectMemberRole(slug, project.id, m.id, role)}
                  />
                ) : (
                  <span className="member-role-static">{roleLabel(m.role)}</span>
                )}
                {isAdmin && !isMe ? (
                  <Menu
                    trigger={
                      <Button
                        variant="ghost"
                        size="sm"
                        className="icon-btn"
                        aria-label={t("projects.members.actionsFor", { name: memberName(m.member_details) })}
                      >
                        <Ellipsis size={14} />
                      </Button>
                    }
                  >
                    <MenuItem danger icon={<UserMinus size={14} />} onSelect={() => setRemoving(m)}>
                      {t("projects.members.remove")}
                    </MenuItem>
                  </Menu>
                ) : (
                  <span style={{ width: 26 }} />
                )}
              </div>
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
  const q = query.trim().toLowerCase();
  const shown = q
    ? candidates.filter(
        (m) => memberName(m.member).toLowerCase().includes(q) || m.member.email.toLowerCase().includes(q),
      )
    : candidates;
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
        <div className="search-input" style={{ width: "100%" }}>
          <Search size={14} aria-hidden />
          <input
            className="input"
            type="search"
            placeholder={t("projects.members.search")}
            aria-label={t("projects.members.search")}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            ref={focusOnMount}
          />
        </div>
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
