/**
 * The tiptap side of live documents: the extension set (the client editor's, see schema.ts), its
 * ProseMirror schema, parser and serializer, and the y-tiptap and @tiptap/html functions the
 * server uses. Loaded on the first conversion through `editorKit()` in schema.ts — ~100 ms of
 * module loading a start does not need.
 */
import { MentionComponent } from "@tideline/shared/editor";
import { type Extensions, getSchema } from "@tiptap/core";
import { CodeBlockLowlight } from "@tiptap/extension-code-block-lowlight";
import { Image } from "@tiptap/extension-image";
import { TaskItem, TaskList } from "@tiptap/extension-list";
import { TableKit } from "@tiptap/extension-table";
import { generateHTML } from "@tiptap/html/server";
import { DOMParser, DOMSerializer } from "@tiptap/pm/model";
import { StarterKit } from "@tiptap/starter-kit";
import { prosemirrorJSONToYXmlFragment, updateYFragment, yXmlFragmentToProseMirrorRootNode } from "@tiptap/y-tiptap";

const extensions: Extensions = [
  StarterKit.configure({
    codeBlock: false,
    heading: { levels: [1, 2, 3] },
    link: { openOnClick: false, autolink: true, defaultProtocol: "https" },
    undoRedo: false,
  }),
  CodeBlockLowlight.configure({ defaultLanguage: null }),
  TaskList,
  TaskItem.configure({ nested: true }),
  Image.configure({ inline: false, allowBase64: false }),
  TableKit.configure({ table: { resizable: false } }),
  // The mention node both sides share (`<mention-component entity_identifier …>`): mentions
  // typed in the live editor survive the derived HTML, so they notify.
  MentionComponent,
];

const schema = getSchema(extensions);

export const editorKit = {
  extensions,
  schema,
  parser: DOMParser.fromSchema(schema),
  serializer: DOMSerializer.fromSchema(schema),
  generateHTML,
  prosemirrorJSONToYXmlFragment,
  updateYFragment,
  yXmlFragmentToProseMirrorRootNode,
};

export type EditorKit = typeof editorKit;
