/**
 * The item's title (saved on blur or Enter) and description. The description is the live
 * document `issue.{id}`: edited by several people at once, kept on this device offline, and
 * stored by the live layer (which derives description_html on the server); nothing here saves
 * it over REST. A badge says whether it is saved.
 */
import { issueDocumentName } from "@tideline/shared";
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { LiveDocumentBadge, type LiveDocumentStatus, LiveEditor, preloadLiveEditor } from "../../components/editor";
import { useMentionables } from "../../stores/project-meta";
import { patchWorkItem, uploadRichTextImage } from "../../stores/work-item-detail";
import type { WorkItem } from "../../stores/work-items";
import { DescriptionHistory } from "./description-history";
import { isEmptyRichText } from "./format";
import { useDetailContext } from "./use-detail";

export function TitleField({ item }: { item: WorkItem }) {
  const { t } = useTranslation();
  const ctx = useDetailContext();
  const [draft, setDraftState] = useState(item.name);
  // The latest text, read by the blur that follows Enter or Escape in the same event.
  const draftRef = useRef(item.name);
  const setDraft = (value: string) => {
    draftRef.current = value;
    setDraftState(value);
  };
  const [error, setError] = useState<string | null>(null);
  const editing = useRef(false);
  const ref = useRef<HTMLTextAreaElement>(null);

  // Follow the item (a change from the board or another tab) unless the person is typing.
  useEffect(() => {
    if (!editing.current) {
      draftRef.current = item.name;
      setDraftState(item.name);
    }
  }, [item.name]);

  // Grow with the text.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-measure when the text changes
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${el.scrollHeight}px`;
  }, [draft]);

  function save() {
    editing.current = false;
    const current = draftRef.current;
    const name = current.replace(/\s+/g, " ").trim();
    if (!name) {
      setError(t("workItem.title.required"));
      setDraft(item.name);
      return;
    }
    setError(null);
    if (name !== current) setDraft(name);
    if (name !== item.name) void patchWorkItem(ctx.slug, ctx.projectId, item.id, { name });
  }

  return (
    <div className="wid-title-wrap">
      <textarea
        ref={ref}
        className="wid-title"
        aria-label={t("workItem.title.label")}
        placeholder={t("workItem.title.placeholder")}
        value={draft}
        rows={1}
        maxLength={255}
        readOnly={!ctx.canEdit}
        aria-invalid={error ? true : undefined}
        onFocus={() => {
          editing.current = true;
        }}
        onChange={(e) => {
          setDraft(e.target.value);
          if (error) setError(null);
        }}
        onBlur={save}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            e.currentTarget.blur();
          } else if (e.key === "Escape") {
            editing.current = false;
            setDraft(item.name);
            // The peek closes on the next Escape, not this one.
            e.stopPropagation();
            e.currentTarget.blur();
          }
        }}
      />
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function DescriptionField({ item, initialHtml }: { item: WorkItem; initialHtml: string }) {
  const { t } = useTranslation();
  const ctx = useDetailContext();
  const [status, setStatus] = useState<LiveDocumentStatus | null>(null);

  useEffect(() => {
    preloadLiveEditor();
  }, []);

  const mentionables = useMentionables(ctx.projectId);

  const upload = useCallback(
    (file: File) => uploadRichTextImage(ctx.slug, ctx.projectId, item.id, file, "ISSUE_DESCRIPTION"),
    [ctx.slug, ctx.projectId, item.id],
  );

  const editable = ctx.canEdit && !ctx.archived;

  // Someone who can't edit an item without a description is told so, rather than shown an empty editor.
  if (!ctx.canEdit && isEmptyRichText(initialHtml)) {
    return (
      <div className="wid-description">
        <p className="subtle">{t("workItem.description.empty")}</p>
      </div>
    );
  }

  return (
    <div className="wid-description">
      <LiveEditor
        documentName={issueDocumentName(item.id)}
        editable={editable}
        ariaLabel={t("workItem.description.label")}
        placeholder={t("workItem.description.placeholder")}
        onUploadImage={editable ? upload : undefined}
        mentionables={mentionables}
        onStatusChange={setStatus}
        previewHtml={isEmptyRichText(initialHtml) ? undefined : initialHtml}
      />
      <div className="wid-save-state">
        <DescriptionHistory itemId={item.id} />
        {/* Nothing about saving until an edit: opening the peek saves nothing. */}
        <LiveDocumentBadge status={status} quietUntilEdited />
      </div>
    </div>
  );
}
