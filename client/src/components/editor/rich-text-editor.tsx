/**
 * The rich-text editor itself (tiptap 3): paragraphs and headings, marks, links, task lists,
 * code blocks highlighted by lowlight, tables, images uploaded through the asset flow, a
 * toolbar and (full variant) a bubble menu on selections. Loaded lazily through index.tsx.
 *
 * Collaboration is opt-in: the live layer passes its Yjs extensions (Collaboration over a
 * Y.Doc, carets bound to a provider); the document then lives there (no `value`, Yjs undo).
 * Also opt-in: the "@" mention popup (`mentionables`), "/" block commands (`slashCommands`) and
 * a character count. The mention node itself is always there (shared with the server's
 * schema, live-server/src/live/schema.ts), so stored mentions show in every editor.
 * Callers can add other extensions too.
 */
import type { AnyExtension, Editor } from "@tiptap/core";
import { Extension } from "@tiptap/core";
import { CodeBlockLowlight } from "@tiptap/extension-code-block-lowlight";
import { Image } from "@tiptap/extension-image";
import { TaskItem, TaskList } from "@tiptap/extension-list";
import { TableKit } from "@tiptap/extension-table";
import { CharacterCount, Placeholder } from "@tiptap/extensions";
import { EditorContent, useEditor, useEditorState } from "@tiptap/react";
import { BubbleMenu } from "@tiptap/react/menus";
import { StarterKit } from "@tiptap/starter-kit";
import clsx from "clsx";
import { common, createLowlight } from "lowlight";
import { useCallback, useEffect, useImperativeHandle, useMemo, useRef } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { mentionsReadOnly, mentionsWithPopup } from "./mentions";
import { SlashCommands } from "./slash-commands";
import { EditorToolbar, LinkButton, MarkButtons } from "./toolbar";
import type { RichTextEditorProps } from "./types";

const lowlight = createLowlight(common);

const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp", "image/avif"];

/** Ctrl/Cmd+Enter calls the latest onSubmit (kept in a ref so the extension is built once). */
function submitShortcut(onSubmit: { current: (() => void) | undefined }) {
  return Extension.create({
    name: "submitShortcut",
    addKeyboardShortcuts() {
      return {
        "Mod-Enter": () => {
          if (!onSubmit.current) return false;
          onSubmit.current();
          return true;
        },
      };
    },
  });
}

/** Upload images and put each where it was dropped or pasted (or at the cursor). */
async function insertImages(
  editor: Editor,
  files: readonly File[],
  upload: (file: File) => Promise<string>,
  failed: string,
  at?: number,
) {
  for (const file of files) {
    try {
      const src = await upload(file);
      if (editor.isDestroyed) return;
      const chain = editor.chain().focus();
      if (at !== undefined) chain.insertContentAt(at, { type: "image", attrs: { src, alt: file.name } });
      else chain.setImage({ src, alt: file.name });
      chain.run();
    } catch (error) {
      toast.error(failed, { description: error instanceof Error ? error.message : undefined });
    }
  }
}

function imageFiles(list: FileList | null | undefined): File[] {
  return list ? Array.from(list).filter((f) => IMAGE_TYPES.includes(f.type)) : [];
}

/** The number of characters, kept current as the document changes. */
function CharacterCountLine({ editor }: { editor: Editor }) {
  const { t } = useTranslation();
  const count = useEditorState({
    editor,
    selector: ({ editor: ed }) => (ed.isDestroyed ? 0 : (ed.storage.characterCount?.characters() ?? 0)),
  });
  return (
    <div className="rte-count" aria-live="off">
      {t("liveEditor.characters", { count })}
    </div>
  );
}

export function RichTextEditorImpl({
  value = "",
  onChange,
  onBlur,
  onFocus,
  placeholder,
  ariaLabel,
  editable = true,
  variant = "full",
  onSubmit,
  onUploadImage,
  extensions: extra,
  collaboration,
  handleRef,
  autoFocus,
  footer,
  className,
  mentionables,
  slashCommands = false,
  showCharacterCount = false,
}: RichTextEditorProps) {
  const { t } = useTranslation();
  const submitRef = useRef(onSubmit);
  submitRef.current = onSubmit;
  const changeRef = useRef(onChange);
  changeRef.current = onChange;
  const uploadRef = useRef(onUploadImage);
  uploadRef.current = onUploadImage;
  const failedText = t("workItem.editor.imageFailed");
  const peopleRef = useRef(mentionables);
  peopleRef.current = mentionables;
  const mentionsOn = mentionables !== undefined;
  const tRef = useRef(t);
  tRef.current = t;

  // Choose image files from the "/" menu: a transient file input, inserted at the cursor. It
  // stays in the page until the choice is made or cancelled (a detached input can be collected
  // before its change event fires).
  const pickImageFile = useCallback(
    (ed: Editor) => {
      const upload = uploadRef.current;
      if (!upload) return;
      const input = document.createElement("input");
      input.type = "file";
      input.accept = IMAGE_TYPES.join(",");
      input.multiple = true;
      input.hidden = true;
      input.addEventListener("change", () => {
        input.remove();
        void insertImages(ed, imageFiles(input.files), upload, failedText);
      });
      input.addEventListener("cancel", () => input.remove());
      document.body.appendChild(input);
      input.click();
    },
    [failedText],
  );

  // The extension list is fixed for the editor's life; callbacks are read through refs.
  // biome-ignore lint/correctness/useExhaustiveDependencies: built once per editor (collaboration doc or variant change remounts)
  const extensions = useMemo(() => {
    const list: AnyExtension[] = [
      StarterKit.configure({
        codeBlock: false,
        heading: { levels: [1, 2, 3] },
        link: { openOnClick: false, autolink: true, defaultProtocol: "https" },
        undoRedo: collaboration ? false : undefined,
      }),
      CodeBlockLowlight.configure({ lowlight, defaultLanguage: null }),
      TaskList,
      TaskItem.configure({ nested: true }),
      Image.configure({ inline: false, allowBase64: false }),
      TableKit.configure({ table: { resizable: false } }),
      Placeholder.configure({ placeholder: placeholder ?? "" }),
      CharacterCount,
      submitShortcut(submitRef),
      mentionsOn
        ? mentionsWithPopup(peopleRef, () => ({
            ariaLabel: tRef.current("liveEditor.mention.label"),
            emptyText: tRef.current("liveEditor.mention.empty"),
          }))
        : mentionsReadOnly,
    ];
    if (slashCommands) {
      list.push(
        SlashCommands.configure({
          canUploadImage: () => Boolean(uploadRef.current),
          pickImage: pickImageFile,
          translate: (key) => tRef.current(key),
          labels: () => ({
            ariaLabel: tRef.current("liveEditor.slash.label"),
            emptyText: tRef.current("liveEditor.slash.empty"),
          }),
        }),
      );
    }
    if (collaboration) list.push(...collaboration.extensions);
    list.push(...(extra ?? []));
    return list;
  }, [collaboration?.extensions, variant, mentionsOn, slashCommands]);

  const editor = useEditor(
    {
      extensions,
      content: collaboration ? undefined : value || "",
      editable,
      autofocus: autoFocus ? "end" : false,
      immediatelyRender: true,
      shouldRerenderOnTransaction: false,
      editorProps: {
        attributes: {
          role: "textbox",
          "aria-label": ariaLabel,
          "aria-multiline": "true",
          class: "rte-content",
        },
        handlePaste: (view, event) => {
          const files = imageFiles(event.clipboardData?.files);
          const upload = uploadRef.current;
          if (!files.length || !upload) return false;
          event.preventDefault();
          const ed = editorRef.current;
          if (ed) void insertImages(ed, files, upload, failedText, view.state.selection.from);
          return true;
        },
        handleDrop: (view, event, _slice, moved) => {
          if (moved) return false;
          const files = imageFiles(event.dataTransfer?.files);
          const upload = uploadRef.current;
          if (!files.length || !upload) return false;
          event.preventDefault();
          const pos = view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos;
          const ed = editorRef.current;
          if (ed) void insertImages(ed, files, upload, failedText, pos);
          return true;
        },
      },
      onUpdate: ({ editor: ed }) => changeRef.current?.(ed.getHTML()),
      onBlur: () => onBlur?.(),
      onFocus: () => onFocus?.(),
    },
    [extensions],
  );
  const editorRef = useRef<Editor | null>(editor);
  editorRef.current = editor;

  // An editor can be destroyed under us (remounts, route changes): never touch a dead one.
  const live = editor && !editor.isDestroyed ? editor : null;

  useEffect(() => {
    if (live && live.isEditable !== editable) live.setEditable(editable);
  }, [live, editable]);

  // A new value from outside (another tab saved, a reset) shows unless the person is typing.
  useEffect(() => {
    if (!live || live.isDestroyed || collaboration || live.isFocused) return;
    if (live.getHTML() !== (value || "<p></p>")) live.commands.setContent(value || "", { emitUpdate: false });
  }, [live, value, collaboration]);

  useImperativeHandle(handleRef, () => {
    const alive = () => (editor && !editor.isDestroyed ? editor : null);
    return {
      focus: () => alive()?.commands.focus("end"),
      clear: () => {
        alive()?.commands.clearContent(false);
      },
      getHTML: () => alive()?.getHTML() ?? "",
      setContent: (html: string) => {
        alive()?.commands.setContent(html, { emitUpdate: false });
      },
      isEmpty: () => alive()?.isEmpty ?? true,
    };
  }, [editor]);

  const focused = useEditorState({ editor, selector: ({ editor: ed }) => ed?.isFocused ?? false });

  const pickImage = (files: FileList | null) => {
    const upload = uploadRef.current;
    if (editor && upload) void insertImages(editor, imageFiles(files), upload, failedText);
  };

  return (
    <div className={clsx("rte", `rte-${variant}`, focused && "rte-focused", !editable && "rte-readonly", className)}>
      {editable && editor && variant === "full" ? (
        <EditorToolbar editor={editor} variant={variant} onPickImage={onUploadImage ? pickImage : undefined} />
      ) : null}
      <EditorContent editor={editor} className="rte-body" />
      {showCharacterCount && live ? <CharacterCountLine editor={live} /> : null}
      {editable && editor && variant === "full" ? (
        <BubbleMenu
          editor={editor}
          className="rte-bubble"
          shouldShow={({ editor: ed, from, to }) =>
            from !== to && !ed.isActive("codeBlock") && !ed.isActive("image") && ed.isEditable
          }
        >
          <MarkButtons editor={editor} />
          <LinkButton editor={editor} />
        </BubbleMenu>
      ) : null}
      {editable && editor && variant === "compact" ? (
        <div className="rte-footer">
          <EditorToolbar editor={editor} variant={variant} onPickImage={onUploadImage ? pickImage : undefined} />
          {footer ? <div className="rte-footer-actions">{footer}</div> : null}
        </div>
      ) : null}
    </div>
  );
}
