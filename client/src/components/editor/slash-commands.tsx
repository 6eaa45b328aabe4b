/**
 * Slash commands: "/" typed at the start of an empty paragraph opens a menu of blocks (text,
 * headings, lists, quote, code, table, divider, and image when uploads are possible), filtered
 * by what follows the slash and driven from the keyboard (suggestion-menu.tsx). Picking one
 * removes the typed "/query" and turns the paragraph into that block.
 */
import { type Editor, Extension, type Range } from "@tiptap/core";
import { PluginKey } from "@tiptap/pm/state";
import { Suggestion } from "@tiptap/suggestion";
import {
  FileCode,
  Heading1,
  Heading2,
  Heading3,
  ImagePlus,
  List,
  ListChecks,
  ListOrdered,
  type LucideIcon,
  Minus,
  Pilcrow,
  Quote,
  Table,
} from "lucide-react";
import { fromCollaboration } from "./mentions";
import { suggestionMenu } from "./suggestion-menu";

export type SlashCommand = {
  id: string;
  /** i18n key of the name shown (liveEditor.slash.*). */
  labelKey: string;
  /** Other words it is found by. */
  keywords: string[];
  icon: LucideIcon;
  run: (editor: Editor, range: Range) => void;
};

export type SlashCommandsOptions = {
  /** Whether images can be uploaded now (the Image command shows only then). */
  canUploadImage: () => boolean;
  /** Let the person pick image files and insert them at the cursor. */
  pickImage: (editor: Editor) => void;
  /** Translate a command's label (read when the menu filters and shows). */
  translate: (key: string) => string;
  labels: () => { ariaLabel: string; emptyText: string };
};

const chainAt = (editor: Editor, range: Range) => editor.chain().focus().deleteRange(range);

export const SLASH_COMMANDS: SlashCommand[] = [
  {
    id: "text",
    labelKey: "liveEditor.slash.text",
    keywords: ["paragraph", "plain"],
    icon: Pilcrow,
    run: (e, r) => chainAt(e, r).setParagraph().run(),
  },
  ...([1, 2, 3] as const).map(
    (level): SlashCommand => ({
      id: `heading${level}`,
      labelKey: `liveEditor.slash.heading${level}`,
      keywords: [`h${level}`, "title", "heading"],
      icon: [Heading1, Heading2, Heading3][level - 1] as LucideIcon,
      run: (e, r) => chainAt(e, r).setNode("heading", { level }).run(),
    }),
  ),
  {
    id: "bulletList",
    labelKey: "liveEditor.slash.bulletList",
    keywords: ["ul", "unordered", "bullet", "list"],
    icon: List,
    run: (e, r) => chainAt(e, r).toggleBulletList().run(),
  },
  {
    id: "orderedList",
    labelKey: "liveEditor.slash.orderedList",
    keywords: ["ol", "ordered", "number", "list"],
    icon: ListOrdered,
    run: (e, r) => chainAt(e, r).toggleOrderedList().run(),
  },
  {
    id: "taskList",
    labelKey: "liveEditor.slash.taskList",
    keywords: ["todo", "task", "checkbox", "check", "list"],
    icon: ListChecks,
    run: (e, r) => chainAt(e, r).toggleTaskList().run(),
  },
  {
    id: "quote",
    labelKey: "liveEditor.slash.quote",
    keywords: ["blockquote", "citation"],
    icon: Quote,
    run: (e, r) => chainAt(e, r).setParagraph().toggleBlockquote().run(),
  },
  {
    id: "codeBlock",
    labelKey: "liveEditor.slash.codeBlock",
    keywords: ["code", "pre", "snippet"],
    icon: FileCode,
    run: (e, r) => chainAt(e, r).setCodeBlock().run(),
  },
  {
    id: "table",
    labelKey: "liveEditor.slash.table",
    keywords: ["grid", "columns"],
    icon: Table,
    run: (e, r) => chainAt(e, r).insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run(),
  },
  {
    id: "divider",
    labelKey: "liveEditor.slash.divider",
    keywords: ["hr", "rule", "separator", "line"],
    icon: Minus,
    run: (e, r) => chainAt(e, r).setHorizontalRule().run(),
  },
];

const IMAGE_COMMAND_ID = "image";

/** The commands to offer for `query` (names and keywords, case-insensitive). */
export function filterSlashCommands(
  commands: readonly SlashCommand[],
  query: string,
  translate: (key: string) => string,
): SlashCommand[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...commands];
  const starts: SlashCommand[] = [];
  const contains: SlashCommand[] = [];
  for (const command of commands) {
    const label = translate(command.labelKey).toLowerCase();
    const words = [label, ...label.split(/[\s-]+/), ...command.keywords];
    if (words.some((w) => w.startsWith(q))) starts.push(command);
    else if (label.includes(q)) contains.push(command);
  }
  return [...starts, ...contains];
}

const slashKey = new PluginKey("slashCommands");

export const SlashCommands = Extension.create<SlashCommandsOptions>({
  name: "slashCommands",

  addOptions() {
    return {
      canUploadImage: () => false,
      pickImage: () => {},
      translate: (key: string) => key,
      labels: () => ({ ariaLabel: "", emptyText: "" }),
    };
  },

  addProseMirrorPlugins() {
    const options = this.options;
    const image: SlashCommand = {
      id: IMAGE_COMMAND_ID,
      labelKey: "liveEditor.slash.image",
      keywords: ["picture", "photo", "upload"],
      icon: ImagePlus,
      run: (e, r) => {
        chainAt(e, r).run();
        options.pickImage(e);
      },
    };
    return [
      Suggestion<SlashCommand, SlashCommand>({
        editor: this.editor,
        pluginKey: slashKey,
        char: "/",
        startOfLine: true,
        allowedPrefixes: null,
        decorationClass: "rte-slash-query",
        // Only in a top-level paragraph holding nothing but the "/query" (not in a heading, a
        // list item, code, a sentence…), and never because of someone else's change.
        allow: ({ state, range }) => {
          const $from = state.doc.resolve(range.from);
          const parent = $from.parent;
          return (
            $from.depth === 1 &&
            parent.type.name === "paragraph" &&
            $from.parentOffset === 0 &&
            parent.textContent.length === range.to - range.from &&
            parent.childCount <= 1
          );
        },
        shouldShow: ({ transaction }) => !fromCollaboration(transaction),
        items: ({ query }) => {
          const all = options.canUploadImage() ? [...SLASH_COMMANDS, image] : SLASH_COMMANDS;
          return filterSlashCommands(all, query, options.translate);
        },
        command: ({ editor, range, props }) => props.run(editor, range),
        render: suggestionMenu<SlashCommand>((items) => {
          return items.map((c) => {
            const Icon = c.icon;
            return { key: c.id, label: options.translate(c.labelKey), icon: <Icon size={16} /> };
          });
        }, options.labels),
      }),
    ];
  },
});
