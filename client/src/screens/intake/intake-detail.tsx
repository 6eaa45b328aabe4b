/**
 * The open request: its title, description and priority (editable by members, and by a guest on
 * their own request until it is accepted), its status, and the triage actions for members:
 * Accept, Decline, Snooze (a day from the date picker) / Unsnooze, Mark as duplicate (a work
 * item of the project, picked with the work items' search), Reopen, Delete.
 */
import { type Priority, personName } from "@tideline/shared";
import { AlarmClock, ArrowLeft, Check, Copy, ExternalLink, RotateCcw, Trash2, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { RichTextEditor } from "../../components/editor";
import { Avatar, Button, DatePopover, Modal, parseDay, Select, toDay } from "../../components/ui";
import {
  acceptIntake,
  declineIntake,
  deleteIntake,
  editIntake,
  effectiveStatus,
  INTAKE_PRIORITIES,
  INTAKE_STATUS,
  type IntakeRequest,
  markIntakeDuplicate,
  reopenIntake,
  snoozeIntake,
  unsnoozeIntake,
} from "../../stores/intake";
import type { ProjectMember } from "../../stores/project-meta";
import { ItemSearch } from "../work-item/item-search";
import { PriorityIcon } from "../work-item/state-icon";
import { ConfirmModal } from "../workspace/components/confirm-modal";
import { ago, requestKey, StatusBadge, showMoment } from "./intake-parts";

type Props = {
  slug: string;
  projectId: string;
  identifier: string | undefined;
  request: IntakeRequest;
  members: readonly ProjectMember[];
  canTriage: boolean;
  userId: string | undefined;
  onBack?: () => void;
  onDeleted: () => void;
};

export function IntakeDetail({
  slug,
  projectId,
  identifier,
  request,
  members,
  canTriage,
  userId,
  onBack,
  onDeleted,
}: Props) {
  const { t } = useTranslation();
  const status = effectiveStatus(request);
  const accepted = status === INTAKE_STATUS.accepted;
  const closed = status === INTAKE_STATUS.declined || status === INTAKE_STATUS.duplicate;
  const canEdit = !accepted && (canTriage || request.created_by === userId);
  const author = members.find((m) => m.member === request.created_by)?.member_details;
  const authorName = author ? personName(author) : t("intake.someone");
  const key = requestKey(identifier, request);
  const [name, setName] = useState(request.issue.name);
  const description = useRef(request.issue.description_html ?? "");
  const [duplicateOpen, setDuplicateOpen] = useState(false);
  const [deleteOpen, setDeleteOpen] = useState(false);

  // Another request opened, or someone else renamed this one: show the name as it is now.
  useEffect(() => {
    setName(request.issue.name);
  }, [request.issue.name]);
  useEffect(() => {
    description.current = request.issue.description_html ?? "";
  }, [request.issue.description_html]);

  const edit = (issue: { name?: string; description_html?: string; priority?: Priority }) =>
    void editIntake(slug, projectId, request, issue, t("intake.errors.edit"));

  function saveName() {
    const next = name.trim();
    if (!next) setName(request.issue.name);
    else if (next !== request.issue.name) edit({ name: next });
  }

  const tomorrow = new Date();
  tomorrow.setDate(tomorrow.getDate() + 1);

  return (
    <article className="intake-detail" aria-label={request.issue.name}>
      <div className="intake-detail-top">
        {onBack ? (
          <Button variant="ghost" size="sm" onClick={onBack}>
            <ArrowLeft size={14} aria-hidden />
            {t("intake.back")}
          </Button>
        ) : null}
        <span className="intake-key">{key}</span>
        <StatusBadge request={request} />
      </div>

      {canTriage && !accepted ? (
        <div className="intake-actions" role="toolbar" aria-label={t("intake.actions.label")}>
          <Button size="sm" onClick={() => void acceptIntake(slug, projectId, request, t("intake.errors.accept"))}>
            <Check size={14} aria-hidden />
            {t("intake.actions.accept")}
          </Button>
          {closed ? (
            <Button
              variant="secondary"
              size="sm"
              onClick={() => void reopenIntake(slug, projectId, request, t("intake.errors.reopen"))}
            >
              <RotateCcw size={14} aria-hidden />
              {t("intake.actions.reopen")}
            </Button>
          ) : (
            <>
              <Button
                variant="secondary"
                size="sm"
                onClick={() => void declineIntake(slug, projectId, request, t("intake.errors.decline"))}
              >
                <X size={14} aria-hidden />
                {t("intake.actions.decline")}
              </Button>
              {status === INTAKE_STATUS.snoozed ? (
                <Button
                  variant="secondary"
                  size="sm"
                  onClick={() => void unsnoozeIntake(slug, projectId, request, t("intake.errors.unsnooze"))}
                >
                  <AlarmClock size={14} aria-hidden />
                  {t("intake.actions.unsnooze")}
                </Button>
              ) : (
                <DatePopover
                  label={t("intake.actions.snoozeUntil")}
                  value={null}
                  clearable={false}
                  min={toDay(tomorrow)}
                  onChange={(day) => {
                    const until = parseDay(day);
                    if (until) void snoozeIntake(slug, projectId, request, until, t("intake.errors.snooze"));
                  }}
                >
                  <Button variant="secondary" size="sm">
                    <AlarmClock size={14} aria-hidden />
                    {t("intake.actions.snooze")}
                  </Button>
                </DatePopover>
              )}
              <Button variant="secondary" size="sm" onClick={() => setDuplicateOpen(true)}>
                <Copy size={14} aria-hidden />
                {t("intake.actions.duplicate")}
              </Button>
            </>
          )}
          <Button variant="ghost" size="sm" className="intake-delete" onClick={() => setDeleteOpen(true)}>
            <Trash2 size={14} aria-hidden />
            {t("intake.actions.delete")}
          </Button>
        </div>
      ) : null}

      {accepted ? (
        <p className="intake-note intake-note-accepted">
          {t("intake.acceptedHint")}{" "}
          <Link to={`/${slug}/browse/${key}/`} className="intake-link">
            <ExternalLink size={13} aria-hidden />
            {t("intake.actions.openItem")}
          </Link>
          {canTriage ? (
            <Button variant="ghost" size="sm" className="intake-delete" onClick={() => setDeleteOpen(true)}>
              <Trash2 size={14} aria-hidden />
              {t("intake.actions.delete")}
            </Button>
          ) : null}
        </p>
      ) : status === INTAKE_STATUS.snoozed && request.snoozed_till ? (
        <p className="intake-note">{t("intake.snoozedUntil", { date: showMoment(request.snoozed_till) })}</p>
      ) : status === INTAKE_STATUS.declined ? (
        <p className="intake-note">{t("intake.declinedHint")}</p>
      ) : status === INTAKE_STATUS.duplicate ? (
        <p className="intake-note">
          {t("intake.duplicateHint")}{" "}
          {request.duplicate_issue_detail ? (
            <Link
              className="intake-link"
              to={`/${slug}/browse/${identifier}-${request.duplicate_issue_detail.sequence_id}/`}
            >
              {t("intake.duplicateOf")} {identifier}-{request.duplicate_issue_detail.sequence_id}{" "}
              {request.duplicate_issue_detail.name}
            </Link>
          ) : null}
        </p>
      ) : null}

      {canEdit ? (
        <textarea
          className="intake-title-input"
          aria-label={t("intake.name")}
          value={name}
          rows={1}
          maxLength={255}
          onChange={(e) => setName(e.target.value.replace(/\n/g, " "))}
          onBlur={saveName}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              e.currentTarget.blur();
            } else if (e.key === "Escape") {
              setName(request.issue.name);
            }
          }}
        />
      ) : (
        <h2 className="intake-title">{request.issue.name}</h2>
      )}

      <div className="intake-meta">
        <Avatar name={authorName} src={author?.avatar_url ?? null} size={20} />
        <span>{t("intake.submittedBy", { name: authorName, when: ago(request.created_at) })}</span>
      </div>

      <div className="intake-props">
        <span className="intake-prop-label">{t("intake.priority")}</span>
        {canEdit ? (
          <Select
            label={t("intake.priority")}
            compact
            value={request.issue.priority}
            searchable={false}
            icon={<PriorityIcon priority={request.issue.priority} />}
            onValueChange={(v) => edit({ priority: v as Priority })}
            options={INTAKE_PRIORITIES.map((p) => ({
              value: p,
              label: t(`workItems.priority.${p}`),
              icon: <PriorityIcon priority={p} />,
            }))}
          />
        ) : (
          <span className="intake-prop-value">
            <PriorityIcon priority={request.issue.priority} />
            {t(`workItems.priority.${request.issue.priority}`)}
          </span>
        )}
      </div>

      <div className="intake-description">
        <RichTextEditor
          key={request.id}
          variant="full"
          ariaLabel={t("intake.description")}
          placeholder={canEdit ? t("intake.descriptionPlaceholder") : undefined}
          value={request.issue.description_html ?? ""}
          editable={canEdit}
          onChange={(html) => {
            description.current = html;
          }}
          onBlur={() => {
            if (description.current !== (request.issue.description_html ?? ""))
              edit({ description_html: description.current });
          }}
        />
      </div>

      {duplicateOpen ? (
        <Modal
          open
          onOpenChange={(open) => !open && setDuplicateOpen(false)}
          title={t("intake.duplicate.title")}
          description={t("intake.duplicate.hint")}
          width={520}
        >
          <ItemSearch
            slug={slug}
            projectId={projectId}
            workItemId={request.issue.id}
            mode="issue_relation"
            label={t("intake.duplicate.search")}
            onPick={(item) => {
              setDuplicateOpen(false);
              void markIntakeDuplicate(
                slug,
                projectId,
                request,
                { id: item.id, sequence_id: item.sequence_id, name: item.name, project_id: item.project_id },
                t("intake.errors.duplicate"),
              );
            }}
          />
        </Modal>
      ) : null}
      <ConfirmModal
        open={deleteOpen}
        onOpenChange={setDeleteOpen}
        title={t("intake.delete.title")}
        description={accepted ? t("intake.delete.accepted") : t("intake.delete.pending")}
        confirmLabel={t("intake.delete.confirm")}
        onConfirm={async () => {
          const done = await deleteIntake(slug, projectId, request, t("intake.errors.delete"));
          if (done) onDeleted();
        }}
      />
    </article>
  );
}
