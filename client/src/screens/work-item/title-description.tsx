/**
 * The item's title (saved on blur or Enter) and description (saved ~1 s after typing stops,
 * with a Saving…/Saved indicator; a pending change is saved when the detail closes).
 */
import { Check, CloudOff, Loader } from "lucide-react";
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { preloadRichTextEditor, RichTextEditor, RichTextView } from "../../components/editor";
import { patchWorkItem, uploadRichTextImage } from "../../stores/work-item-detail";
import type { WorkItem } from "../../stores/work-items";
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

type SaveState = "idle" | "pending" | "saving" | "saved" | "failed";

const SAVE_DELAY = 1000;

export function DescriptionField({ item, initialHtml }: { item: WorkItem; initialHtml: string }) {
  const { t } = useTranslation();
  const ctx = useDetailContext();
  const [state, setState] = useState<SaveState>("idle");
  // The editor starts from the description as loaded; our own saves must not reset it.
  const [startHtml] = useState(initialHtml);
  const pending = useRef<string | null>(null);
  const lastSaved = useRef(initialHtml);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const target = useRef({ slug: ctx.slug, projectId: ctx.projectId, id: item.id });
  target.current = { slug: ctx.slug, projectId: ctx.projectId, id: item.id };

  useEffect(() => {
    preloadRichTextEditor();
  }, []);

  const flush = useCallback(async () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const html = pending.current;
    if (html === null) return;
    pending.current = null;
    // Both empty (blank or an empty paragraph): nothing changed worth a history row.
    if (html === lastSaved.current || (isEmptyRichText(html) && isEmptyRichText(lastSaved.current))) {
      setState((s) => (s === "pending" ? "saved" : s));
      return;
    }
    setState("saving");
    const { slug, projectId, id } = target.current;
    const answer = await patchWorkItem(slug, projectId, id, {
      description_html: isEmptyRichText(html) ? "<p></p>" : html,
    });
    if (answer) {
      lastSaved.current = html;
      // A newer change may be waiting; its own save will report.
      setState(pending.current === null ? "saved" : "pending");
    } else setState("failed");
  }, []);

  const onChange = useCallback(
    (html: string) => {
      pending.current = html;
      setState("pending");
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => void flush(), SAVE_DELAY);
    },
    [flush],
  );

  // Closing the detail (or leaving the page) saves what was typed.
  useEffect(() => {
    const beforeUnload = (event: BeforeUnloadEvent) => {
      if (pending.current !== null) {
        void flush();
        event.preventDefault();
      }
    };
    window.addEventListener("beforeunload", beforeUnload);
    return () => {
      window.removeEventListener("beforeunload", beforeUnload);
      void flush();
    };
  }, [flush]);

  const upload = useCallback(
    (file: File) => uploadRichTextImage(ctx.slug, ctx.projectId, item.id, file, "ISSUE_DESCRIPTION"),
    [ctx.slug, ctx.projectId, item.id],
  );

  if (!ctx.canEdit) {
    return (
      <div className="wid-description">
        {isEmptyRichText(initialHtml) ? (
          <p className="subtle">{t("workItem.description.empty")}</p>
        ) : (
          <RichTextView html={initialHtml} />
        )}
      </div>
    );
  }

  return (
    <div className="wid-description">
      <RichTextEditor
        value={startHtml}
        onChange={onChange}
        onBlur={() => void flush()}
        ariaLabel={t("workItem.description.label")}
        placeholder={t("workItem.description.placeholder")}
        variant="full"
        onUploadImage={upload}
      />
      <div className="wid-save-state" aria-live="polite">
        {state === "pending" || state === "saving" ? (
          <>
            <Loader size={12} aria-hidden className="wid-spin" />
            {t("workItem.description.saving")}
          </>
        ) : state === "saved" ? (
          <>
            <Check size={12} aria-hidden />
            {t("workItem.description.saved")}
          </>
        ) : state === "failed" ? (
          <span className="wid-save-failed">
            <CloudOff size={12} aria-hidden />
            {t("workItem.description.failed")}
          </span>
        ) : null}
      </div>
    </div>
  );
}
