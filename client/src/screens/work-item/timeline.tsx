/**
 * Activity and comments as one timeline, oldest first, with tabs All / Comments / Activity;
 * comments show author, time, an "edited" mark, reactions, and edit/delete for their author
 * (delete also for project admins); the comment box at the end sends with Ctrl/Cmd+Enter.
 */
import { personName } from "@tideline/shared";
import { Ellipsis, History } from "lucide-react";
import { Tabs } from "radix-ui";
import { useCallback, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useSnapshot } from "valtio";
import { RichTextEditor, type RichTextEditorHandle, RichTextView } from "../../components/editor";
import { WaitingToSync } from "../../components/offline/waiting-to-sync";
import { Avatar, Button } from "../../components/ui";
import { outboxState } from "../../lib/offline/app-outbox";
import { offlineComments } from "../../stores/offline-changes";
import { useMentionables } from "../../stores/project-meta";
import {
  type Activity,
  addComment,
  type Comment,
  deleteComment,
  toggleCommentReaction,
  updateComment,
  uploadRichTextImage,
} from "../../stores/work-item-detail";
import { useCycleList, useModuleList } from "../work-items/cycle-module-pickers";
import { ConfirmModal } from "../workspace/components/confirm-modal";
import { Menu, MenuItem } from "../workspace/components/menu";
import { type ActivitySegment, describeActivitySegments, foldActivity } from "./activity-format";
import { formatMoment, isEmptyRichText, relativeTime } from "./format";
import { ReactionBar } from "./reactions";
import { metaNames, useDetail, useDetailContext, useProjectMeta, useViewer, useViewerId } from "./use-detail";

type Tab = "all" | "comments" | "activity";
type Entry = { kind: "activity"; row: Activity } | { kind: "comment"; row: Comment };

export function Timeline({ workItemId }: { workItemId: string }) {
  const { t } = useTranslation();
  const ctx = useDetailContext();
  const detail = useDetail(workItemId);
  const meta = useProjectMeta(ctx.projectId);
  const [tab, setTab] = useState<Tab>("all");
  // Cycles and modules by their current names (a renamed one reads as it is called now); the
  // lists load only when the history mentions one.
  const mentions = (field: string) => (detail?.activity ?? []).some((a) => a.field === field);
  const cycleList = useCycleList(ctx.slug, ctx.projectId, mentions("cycles"));
  const moduleList = useModuleList(ctx.slug, ctx.projectId, mentions("modules"));
  const names = useMemo(
    () => ({
      ...metaNames(meta),
      cycle: (id: string) => cycleList.list.find((c) => c.id === id)?.name,
      module: (id: string) => moduleList.list.find((m) => m.id === id)?.name,
      attachment: (id: string) => detail?.attachments.find((a) => a.id === id)?.attributes.name,
    }),
    [meta, cycleList.list, moduleList.list, detail?.attachments],
  );
  const translate = useCallback((key: string, vars?: Record<string, string>) => t(key, vars ?? {}), [t]);

  // Comments made offline still waiting to be sent (after a reload the history doesn't have them).
  const waitingChanges = useSnapshot(outboxState).count;
  const entries = useMemo(() => {
    const list: Entry[] = [];
    const comments = (detail?.comments ?? []) as Comment[];
    const known = new Set(comments.map((c) => c.id));
    const waiting = waitingChanges ? offlineComments(workItemId).filter((c) => !known.has(c.id)) : [];
    if (tab !== "activity") for (const c of [...comments, ...waiting]) list.push({ kind: "comment", row: c });
    if (tab !== "comments")
      for (const a of foldActivity((detail?.activity ?? []) as Activity[])) list.push({ kind: "activity", row: a });
    return list.sort((x, y) => x.row.created_at.localeCompare(y.row.created_at));
  }, [detail?.comments, detail?.activity, tab, waitingChanges, workItemId]);

  return (
    <section className="wid-timeline" aria-label={t("workItem.timeline.title")}>
      <div className="wid-timeline-head">
        <h3>{t("workItem.timeline.title")}</h3>
        <Tabs.Root value={tab} onValueChange={(v) => setTab(v as Tab)}>
          <Tabs.List className="wid-tabs" aria-label={t("workItem.timeline.title")}>
            {(["all", "comments", "activity"] as const).map((key) => (
              <Tabs.Trigger key={key} value={key} className="wid-tab">
                {t(`workItem.timeline.tabs.${key}`)}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
        </Tabs.Root>
      </div>
      {detail?.timelineLoaded && entries.length === 0 ? (
        <p className="wid-empty">
          {tab === "comments" ? t("workItem.timeline.noComments") : t("workItem.timeline.empty")}
        </p>
      ) : null}
      <ol className="wid-timeline-list">
        {entries.map((entry) =>
          entry.kind === "activity" ? (
            <li key={entry.row.id} className="wid-activity">
              <span className="wid-activity-icon" aria-hidden>
                <History size={12} />
              </span>
              <span className="wid-activity-text">
                {describeActivitySegments(entry.row, translate, names).map((segment, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a sentence's pieces never reorder
                  <SegmentText key={index} segment={segment} />
                ))}
              </span>
              <time className="subtle" dateTime={entry.row.created_at} title={formatMoment(entry.row.created_at)}>
                {relativeTime(entry.row.created_at)}
              </time>
            </li>
          ) : (
            <CommentCard key={entry.row.id} comment={entry.row} workItemId={workItemId} />
          ),
        )}
      </ol>
      {ctx.canEdit ? (
        <CommentBox workItemId={workItemId} />
      ) : (
        <p className="subtle">{t("workItem.comments.readOnly")}</p>
      )}
    </section>
  );
}

/** A piece of a history sentence; a cycle or module the project lists links to its board. */
function SegmentText({ segment }: { segment: ActivitySegment }) {
  const ctx = useDetailContext();
  if (!segment.ref) return <>{segment.text}</>;
  const base = `/${ctx.slug}/projects/${ctx.projectId}`;
  const to = segment.ref.kind === "cycle" ? `${base}/cycles/${segment.ref.id}/` : `${base}/modules/${segment.ref.id}/`;
  return (
    <Link className="wid-activity-link" to={to}>
      {segment.text}
    </Link>
  );
}

function useCommentImageUpload(workItemId: string) {
  const ctx = useDetailContext();
  return useCallback(
    (file: File) => uploadRichTextImage(ctx.slug, ctx.projectId, workItemId, file, "COMMENT_DESCRIPTION"),
    [ctx.slug, ctx.projectId, workItemId],
  );
}

function CommentCard({ comment, workItemId }: { comment: Comment; workItemId: string }) {
  const { t } = useTranslation();
  const ctx = useDetailContext();
  const viewer = useViewerId();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [draft, setDraft] = useState(comment.comment_html);
  const upload = useCommentImageUpload(workItemId);
  const mentionables = useMentionables(ctx.projectId);
  const author = comment.actor_detail;
  const name = author ? personName(author) : "";
  const mine = viewer === comment.actor;
  const pending = comment.id.startsWith("temp-");

  async function save() {
    if (isEmptyRichText(draft)) return;
    setEditing(false);
    if (draft !== comment.comment_html) await updateComment(ctx.slug, ctx.projectId, workItemId, comment.id, draft);
  }

  return (
    <li
      className={pending ? "wid-comment is-pending" : "wid-comment"}
      aria-label={`${name} ${t("workItem.comments.commented")}`}
    >
      <Avatar name={name} src={author?.avatar_url} size={28} />
      <div className="wid-comment-card">
        <div className="wid-comment-head">
          <strong>{name}</strong>
          <span className="subtle">{t("workItem.comments.commented")}</span>
          <time className="subtle" dateTime={comment.created_at} title={formatMoment(comment.created_at)}>
            {relativeTime(comment.created_at)}
          </time>
          <WaitingToSync id={comment.id} />
          {comment.edited_at ? (
            <span className="subtle wid-edited" title={formatMoment(comment.edited_at)}>
              ({t("workItem.comments.edited")})
            </span>
          ) : null}
          <span className="spacer" />
          {(mine || ctx.isProjectAdmin) && ctx.canEdit && !pending ? (
            <Menu
              trigger={
                <button type="button" className="wid-icon-btn" aria-label={t("workItem.comments.actions")}>
                  <Ellipsis size={14} aria-hidden />
                </button>
              }
            >
              {mine ? (
                <MenuItem
                  onSelect={() => {
                    setDraft(comment.comment_html);
                    setEditing(true);
                  }}
                >
                  {t("workItem.comments.edit")}
                </MenuItem>
              ) : null}
              <MenuItem danger onSelect={() => setConfirming(true)}>
                {t("workItem.comments.delete")}
              </MenuItem>
            </Menu>
          ) : null}
        </div>
        {editing ? (
          <RichTextEditor
            variant="compact"
            value={comment.comment_html}
            ariaLabel={t("workItem.comments.editLabel")}
            onChange={setDraft}
            onSubmit={() => void save()}
            onUploadImage={upload}
            mentionables={mentionables}
            autoFocus
            footer={
              <>
                <Button variant="ghost" size="sm" onClick={() => setEditing(false)}>
                  {t("workItem.comments.cancel")}
                </Button>
                <Button size="sm" disabled={isEmptyRichText(draft)} onClick={() => void save()}>
                  {t("workItem.comments.save")}
                </Button>
              </>
            }
          />
        ) : (
          <RichTextView html={comment.comment_html} className="wid-comment-body" />
        )}
        <ReactionBar
          reactions={comment.comment_reactions}
          disabled={!ctx.canEdit || pending}
          onToggle={(emoji) => void toggleCommentReaction(ctx.slug, ctx.projectId, workItemId, comment.id, emoji)}
        />
      </div>
      <ConfirmModal
        open={confirming}
        onOpenChange={setConfirming}
        title={t("workItem.comments.deleteTitle")}
        description={t("workItem.comments.deleteDescription")}
        confirmLabel={t("workItem.comments.delete")}
        onConfirm={() => {
          setConfirming(false);
          void deleteComment(ctx.slug, ctx.projectId, workItemId, comment.id);
        }}
      />
    </li>
  );
}

function CommentBox({ workItemId }: { workItemId: string }) {
  const { t } = useTranslation();
  const ctx = useDetailContext();
  const viewer = useViewer();
  const editorRef = useRef<RichTextEditorHandle>(null);
  const [html, setHtml] = useState("");
  const [busy, setBusy] = useState(false);
  const upload = useCommentImageUpload(workItemId);
  const mentionables = useMentionables(ctx.projectId);
  const empty = isEmptyRichText(html);

  const send = useCallback(async () => {
    const current = editorRef.current?.getHTML() ?? html;
    if (isEmptyRichText(current) || busy) return;
    setBusy(true);
    // Cleared at once (the comment shows optimistically); restored if the server refuses.
    editorRef.current?.clear();
    setHtml("");
    const ok = await addComment(ctx.slug, ctx.projectId, workItemId, current);
    if (!ok) {
      editorRef.current?.setContent(current);
      setHtml(current);
    }
    setBusy(false);
  }, [busy, ctx.slug, ctx.projectId, html, workItemId]);

  return (
    <div className="wid-comment-box">
      <Avatar name={viewer.name} src={viewer.avatarUrl} size={28} />
      <div className="wid-comment-box-editor">
        <RichTextEditor
          variant="compact"
          handleRef={editorRef}
          ariaLabel={t("workItem.comments.label")}
          placeholder={t("workItem.comments.placeholder")}
          onChange={setHtml}
          onSubmit={() => void send()}
          onUploadImage={upload}
          mentionables={mentionables}
          footer={
            <>
              <span className="subtle wid-hint">{t("workItem.comments.hint")}</span>
              <Button size="sm" disabled={empty} loading={busy} onClick={() => void send()}>
                {t("workItem.comments.submit")}
              </Button>
            </>
          }
        />
      </div>
    </div>
  );
}
