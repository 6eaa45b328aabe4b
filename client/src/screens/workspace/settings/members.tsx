import { ROLE } from "@tideline/shared";
import { Mail, RotateCw, UserMinus, UserPlus, Users, X } from "lucide-react";
import { type FormEvent, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { Banner, Button, EmptyState, Modal, ModalFooter } from "../../../components/ui";
import { errorMessage } from "../../../lib/api";
import {
  fetchWorkspaceInvitations,
  type Invitation,
  invitations,
  resendInvitation,
  revokeInvitation,
  sendInvitations,
  updateInvitationRole,
} from "../../../stores/invitations";
import {
  fetchWorkspaceMembers,
  memberName,
  members,
  removeWorkspaceMember,
  updateWorkspaceMemberRole,
  type WorkspaceMember,
} from "../../../stores/members";
import { session } from "../../../stores/session";
import { ConfirmModal } from "../components/confirm-modal";
import { InviteRows } from "../components/invite-rows";
import { type InviteRow, newInviteRow, validateInviteRows } from "../components/invite-validation";
import { MenuItem } from "../components/menu";
import { RoleSelect, useRoleLabel } from "../components/role-select";
import { filterPeople, MemberRow, MemberSearch, RowActionsMenu, SettingsHeading } from "../components/settings-parts";
import { SkeletonRows } from "../components/skeleton";
import { can } from "../permissions";
import { useCurrentWorkspace } from "../use-workspace";

/** Workspace settings → Members: members with roles, pending invitations, and inviting. */
export function WorkspaceMembersSettings() {
  const { t } = useTranslation();
  const { slug, workspace, role } = useCurrentWorkspace();
  const snap = useSnapshot(members);
  const invSnap = useSnapshot(invitations);
  const me = useSnapshot(session).user;
  const roleLabel = useRoleLabel();
  const [params, setParams] = useSearchParams();
  const [query, setQuery] = useState("");
  const [removing, setRemoving] = useState<WorkspaceMember | null>(null);
  const inviteOpen = params.get("invite") === "1";
  const myRole = role ?? ROLE.guest;

  useEffect(() => {
    void fetchWorkspaceMembers(slug).catch(() => undefined);
    if (can.invite(role)) void fetchWorkspaceInvitations(slug).catch(() => undefined);
  }, [slug, role]);

  const setInviteOpen = (open: boolean) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (open) next.set("invite", "1");
        else next.delete("invite");
        return next;
      },
      { replace: true },
    );

  const list = snap.bySlug[slug];
  const pending = invSnap.bySlug[slug];
  const shown = useMemo(
    () => filterPeople(list, query, (m) => ({ name: memberName(m.member), email: m.member.email })),
    [list, query],
  );

  return (
    <>
      <SettingsHeading
        title={t("settings.members.title")}
        hint={t("settings.members.hint", { name: workspace?.name ?? "" })}
      >
        {can.invite(role) ? (
          <Button onClick={() => setInviteOpen(true)}>
            <UserPlus size={14} aria-hidden />
            {t("settings.members.invite")}
          </Button>
        ) : null}
      </SettingsHeading>
      {can.manageWorkspaceMembers(role) ? null : (
        <div className="readonly-note">
          <Banner kind="info">{t("settings.members.readOnly")}</Banner>
        </div>
      )}

      <section className="settings-section">
        <div className="member-list-toolbar">
          <h2>{t("settings.members.count", { count: list?.length ?? 0 })}</h2>
          <MemberSearch label={t("projects.members.search")} value={query} onChange={setQuery} />
        </div>
        <div className="member-list">
          {shown === undefined ? (
            <SkeletonRows count={3} height={52} />
          ) : shown.length === 0 ? (
            <EmptyState icon={Users} title={t("projects.members.noMatch")} />
          ) : (
            shown.map((m) => {
              const isMe = m.member.id === me?.id;
              // Only admins change roles (the server's rule, the reference's too), never their own.
              const canChange = !isMe && can.manageWorkspaceMembers(role);
              const name = memberName(m.member);
              return (
                <MemberRow
                  key={m.id}
                  avatarName={name}
                  avatarUrl={m.member.avatar_url}
                  name={
                    <Link
                      to={`/${slug}/profile/${m.member.id}/`}
                      // The name reads as text; hovering underlines it as a link (global a:hover).
                      style={{ color: "inherit" }}
                      title={t("memberProfile.membersLink", { name })}
                    >
                      {name}
                    </Link>
                  }
                  youBadge={isMe ? t("workspace.common.you") : null}
                  detail={m.member.email}
                  role={
                    canChange ? (
                      <RoleSelect
                        label={t("projects.members.roleOf", { name })}
                        value={m.role}
                        max={myRole}
                        onChange={(next) => void updateWorkspaceMemberRole(slug, m.id, next)}
                      />
                    ) : (
                      <span className="member-role-static">{roleLabel(m.role)}</span>
                    )
                  }
                  actions={
                    can.manageWorkspaceMembers(role) && !isMe ? (
                      <RowActionsMenu label={t("projects.members.actionsFor", { name })}>
                        <MenuItem danger icon={<UserMinus size={14} />} onSelect={() => setRemoving(m)}>
                          {t("settings.members.remove")}
                        </MenuItem>
                      </RowActionsMenu>
                    ) : null
                  }
                />
              );
            })
          )}
        </div>
      </section>

      {can.invite(role) ? (
        <section className="settings-section">
          <div className="member-list-toolbar">
            <h2>{t("settings.members.pending", { count: pending?.length ?? 0 })}</h2>
          </div>
          <div className="member-list">
            {pending === undefined ? (
              <SkeletonRows count={2} height={52} />
            ) : pending.length === 0 ? (
              <EmptyState
                icon={Mail}
                title={t("settings.members.noPending")}
                description={t("settings.members.noPendingHint")}
              />
            ) : (
              pending.map((invitation) => <PendingRow key={invitation.id} invitation={invitation} myRole={myRole} />)
            )}
          </div>
        </section>
      ) : null}

      {inviteOpen && can.invite(role) ? <InviteModal onClose={() => setInviteOpen(false)} /> : null}

      <ConfirmModal
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={t("settings.members.removeTitle", { name: removing ? memberName(removing.member) : "" })}
        description={t("settings.members.removeDescription", { name: workspace?.name ?? "" })}
        confirmLabel={t("settings.members.remove")}
        onConfirm={async () => {
          if (removing && (await removeWorkspaceMember(slug, removing.id))) setRemoving(null);
        }}
      />
    </>
  );
}

function PendingRow({ invitation, myRole }: { invitation: Invitation; myRole: number }) {
  const { t, i18n } = useTranslation();
  const { slug } = useCurrentWorkspace();
  const roleLabel = useRoleLabel();
  const manageable = myRole >= ROLE.admin || invitation.role <= myRole;
  const sent = new Intl.DateTimeFormat(i18n.language, { month: "short", day: "numeric" }).format(
    new Date(invitation.created_at),
  );
  return (
    <MemberRow
      avatarName={invitation.email}
      name={invitation.email}
      detail={t("settings.members.invitedOn", { date: sent })}
      role={
        manageable ? (
          <RoleSelect
            label={t("settings.members.invitationRole", { email: invitation.email })}
            value={invitation.role}
            max={myRole}
            onChange={(role) => void updateInvitationRole(slug, invitation.id, role)}
          />
        ) : (
          <span className="member-role-static">{roleLabel(invitation.role)}</span>
        )
      }
      actions={
        manageable ? (
          <RowActionsMenu label={t("settings.members.invitationActions", { email: invitation.email })}>
            <MenuItem icon={<RotateCw size={14} />} onSelect={() => void resendInvitation(slug, invitation)}>
              {t("settings.members.resend")}
            </MenuItem>
            <MenuItem danger icon={<X size={14} />} onSelect={() => void revokeInvitation(slug, invitation.id)}>
              {t("settings.members.revoke")}
            </MenuItem>
          </RowActionsMenu>
        ) : null
      }
    />
  );
}

/** Invite people by e-mail, each with a role (at most the inviter's own). */
export function InviteModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { slug, workspace, role } = useCurrentWorkspace();
  const maxRole = role ?? ROLE.member;
  const [rows, setRows] = useState<InviteRow[]>(() => [newInviteRow(Math.min(ROLE.member, maxRole))]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const checked = validateInviteRows(rows, {
      invalid: t("workspace.invite.invalidEmail"),
      duplicate: t("workspace.invite.duplicate"),
    });
    setRows(checked.rows);
    if (checked.rows.some((r) => r.error)) return;
    if (checked.entries.length === 0) {
      setError(t("workspace.invite.atLeastOne"));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const result = await sendInvitations(slug, checked.entries);
      if (result.invitations.length > 0) {
        toast.success(t("workspace.invite.sent", { count: result.invitations.length }));
      }
      for (const skipped of result.skipped) toast.info(`${skipped.email}: ${skipped.reason}`);
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
      title={t("workspace.invite.title", { name: workspace?.name ?? "" })}
      description={t("workspace.invite.description")}
      width={560}
    >
      <form onSubmit={submit} noValidate className="stack">
        {error ? <Banner>{error}</Banner> : null}
        <InviteRows rows={rows} onChange={setRows} maxRole={maxRole} focusFirst />
        <ModalFooter>
          <Button variant="secondary" onClick={onClose}>
            {t("workspace.common.cancel")}
          </Button>
          <Button type="submit" loading={busy}>
            {t("workspace.invite.submit")}
          </Button>
        </ModalFooter>
      </form>
    </Modal>
  );
}
