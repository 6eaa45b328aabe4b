/**
 * The editor's toolbar: marks, blocks, lists, link, image and table. Buttons carry their name
 * (aria-label + tooltip) and their state (aria-pressed), and keep the editor's selection by not
 * taking focus on mouse down.
 */
import type { Editor } from "@tiptap/core";
import { useEditorState } from "@tiptap/react";
import {
  Bold,
  Code,
  FileCode,
  Heading1,
  Heading2,
  Heading3,
  ImagePlus,
  Italic,
  Link2,
  List,
  ListChecks,
  ListOrdered,
  type LucideIcon,
  Quote,
  Strikethrough,
  Table,
  Underline,
} from "lucide-react";
import { Popover } from "radix-ui";
import { type FormEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

type ToolProps = {
  icon: LucideIcon;
  label: string;
  active?: boolean;
  disabled?: boolean;
  onRun: () => void;
};

function Tool({ icon: Icon, label, active, disabled, onRun }: ToolProps) {
  return (
    <button
      type="button"
      className="rte-tool"
      aria-label={label}
      title={label}
      aria-pressed={active ?? undefined}
      disabled={disabled}
      // Keep the editor's selection: the command runs on the text that was selected.
      onMouseDown={(e) => e.preventDefault()}
      onClick={onRun}
    >
      <Icon size={15} aria-hidden />
    </button>
  );
}

function useMarks(editor: Editor) {
  return useEditorState({
    editor,
    selector: ({ editor: ed }) => ({
      bold: ed.isActive("bold"),
      italic: ed.isActive("italic"),
      underline: ed.isActive("underline"),
      strike: ed.isActive("strike"),
      code: ed.isActive("code"),
      link: ed.isActive("link"),
    }),
  });
}

export function MarkButtons({ editor, withUnderline = true }: { editor: Editor; withUnderline?: boolean }) {
  const { t } = useTranslation();
  const marks = useMarks(editor);
  return (
    <>
      <Tool
        icon={Bold}
        label={t("workItem.editor.bold")}
        active={marks.bold}
        onRun={() => editor.chain().focus().toggleBold().run()}
      />
      <Tool
        icon={Italic}
        label={t("workItem.editor.italic")}
        active={marks.italic}
        onRun={() => editor.chain().focus().toggleItalic().run()}
      />
      {withUnderline ? (
        <Tool
          icon={Underline}
          label={t("workItem.editor.underline")}
          active={marks.underline}
          onRun={() => editor.chain().focus().toggleUnderline().run()}
        />
      ) : null}
      <Tool
        icon={Strikethrough}
        label={t("workItem.editor.strike")}
        active={marks.strike}
        onRun={() => editor.chain().focus().toggleStrike().run()}
      />
      <Tool
        icon={Code}
        label={t("workItem.editor.code")}
        active={marks.code}
        onRun={() => editor.chain().focus().toggleCode().run()}
      />
    </>
  );
}

function validUrl(value: string): string | null {
  const trimmed = value.trim();
  const candidate = /^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `https://${trimmed}`;
  try {
    const url = new URL(candidate);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname ? url.href : null;
  } catch {
    return null;
  }
}

/** Link: a small form for the address; an empty address removes the link. */
export function LinkButton({ editor }: { editor: Editor }) {
  const { t } = useTranslation();
  const marks = useMarks(editor);
  const [open, setOpen] = useState(false);
  const [href, setHref] = useState("");
  const [error, setError] = useState<string | null>(null);

  function openWith(next: boolean) {
    if (next) {
      setHref((editor.getAttributes("link").href as string | undefined) ?? "");
      setError(null);
    }
    setOpen(next);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    event.stopPropagation();
    if (!href.trim()) {
      editor.chain().focus().extendMarkRange("link").unsetLink().run();
      setOpen(false);
      return;
    }
    const url = validUrl(href);
    if (!url) {
      setError(t("workItem.editor.linkInvalid"));
      return;
    }
    const chain = editor.chain().focus().extendMarkRange("link");
    if (editor.state.selection.empty && !editor.isActive("link")) {
      chain.insertContent({ type: "text", text: url, marks: [{ type: "link", attrs: { href: url } }] }).run();
    } else chain.setLink({ href: url }).run();
    setOpen(false);
  }

  return (
    <Popover.Root open={open} onOpenChange={openWith}>
      <Popover.Trigger asChild>
        <button
          type="button"
          className="rte-tool"
          aria-label={t("workItem.editor.link")}
          title={t("workItem.editor.link")}
          aria-pressed={marks.link}
          onMouseDown={(e) => e.preventDefault()}
        >
          <Link2 size={15} aria-hidden />
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="rte-link-pop" sideOffset={6} align="start">
          <form onSubmit={submit} className="rte-link-form">
            <input
              className="input input-compact"
              aria-label={t("workItem.editor.linkPrompt")}
              placeholder="https://"
              value={href}
              onChange={(e) => {
                setHref(e.target.value);
                setError(null);
              }}
              aria-invalid={error ? true : undefined}
            />
            <button type="submit" className="btn btn-primary btn-sm">
              {t("workItem.editor.apply")}
            </button>
            {marks.link ? (
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                onClick={() => {
                  editor.chain().focus().extendMarkRange("link").unsetLink().run();
                  setOpen(false);
                }}
              >
                {t("workItem.editor.unlink")}
              </button>
            ) : null}
          </form>
          {error ? (
            <p className="field-error" role="alert">
              {error}
            </p>
          ) : null}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

export function EditorToolbar({
  editor,
  variant,
  onPickImage,
}: {
  editor: Editor;
  variant: "full" | "compact";
  onPickImage?: (files: FileList | null) => void;
}) {
  const { t } = useTranslation();
  const fileRef = useRef<HTMLInputElement>(null);
  const blocks = useEditorState({
    editor,
    selector: ({ editor: ed }) => ({
      h1: ed.isActive("heading", { level: 1 }),
      h2: ed.isActive("heading", { level: 2 }),
      h3: ed.isActive("heading", { level: 3 }),
      bullet: ed.isActive("bulletList"),
      ordered: ed.isActive("orderedList"),
      task: ed.isActive("taskList"),
      quote: ed.isActive("blockquote"),
      codeBlock: ed.isActive("codeBlock"),
      table: ed.isActive("table"),
    }),
  });
  const full = variant === "full";
  return (
    <div className="rte-toolbar" role="toolbar" aria-label={t("workItem.editor.toolbar")}>
      {full ? (
        <>
          <Tool
            icon={Heading1}
            label={t("workItem.editor.heading1")}
            active={blocks.h1}
            onRun={() => editor.chain().focus().toggleHeading({ level: 1 }).run()}
          />
          <Tool
            icon={Heading2}
            label={t("workItem.editor.heading2")}
            active={blocks.h2}
            onRun={() => editor.chain().focus().toggleHeading({ level: 2 }).run()}
          />
          <Tool
            icon={Heading3}
            label={t("workItem.editor.heading3")}
            active={blocks.h3}
            onRun={() => editor.chain().focus().toggleHeading({ level: 3 }).run()}
          />
          <span className="rte-sep" aria-hidden />
        </>
      ) : null}
      <MarkButtons editor={editor} withUnderline={full} />
      <span className="rte-sep" aria-hidden />
      <Tool
        icon={List}
        label={t("workItem.editor.bulletList")}
        active={blocks.bullet}
        onRun={() => editor.chain().focus().toggleBulletList().run()}
      />
      <Tool
        icon={ListOrdered}
        label={t("workItem.editor.orderedList")}
        active={blocks.ordered}
        onRun={() => editor.chain().focus().toggleOrderedList().run()}
      />
      <Tool
        icon={ListChecks}
        label={t("workItem.editor.taskList")}
        active={blocks.task}
        onRun={() => editor.chain().focus().toggleTaskList().run()}
      />
      <span className="rte-sep" aria-hidden />
      <Tool
        icon={Quote}
        label={t("workItem.editor.quote")}
        active={blocks.quote}
        onRun={() => editor.chain().focus().toggleBlockquote().run()}
      />
      <Tool
        icon={FileCode}
        label={t("workItem.editor.codeBlock")}
        active={blocks.codeBlock}
        onRun={() => editor.chain().focus().toggleCodeBlock().run()}
      />
      <LinkButton editor={editor} />
      {onPickImage ? (
        <>
          <Tool icon={ImagePlus} label={t("workItem.editor.image")} onRun={() => fileRef.current?.click()} />
          <input
            ref={fileRef}
            type="file"
            accept="image/png,image/jpeg,image/gif,image/webp,image/avif"
            hidden
            tabIndex={-1}
            onChange={(e) => {
              onPickImage(e.target.files);
              e.target.value = "";
            }}
          />
        </>
      ) : null}
      {full ? (
        <Tool
          icon={Table}
          label={t("workItem.editor.table")}
          disabled={blocks.table}
          onRun={() => editor.chain().focus().insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run()}
        />
      ) : null}
    </div>
  );
}
