/**
 * The server's HTML ↔ Yjs conversions: the same output as @tiptap/html's server functions, a
 * round trip that keeps the editor's content, and replacement as a diff.
 */
import { DOCUMENT_FIELD } from "@tideline/shared";
import { generateHTML, generateJSON } from "@tiptap/html/server";
import { prosemirrorJSONToYXmlFragment } from "@tiptap/y-tiptap";
import { describe, expect, it } from "vitest";
import * as Y from "yjs";
import { mentionedUserIds } from "../notifications/mentions.ts";
import {
  contentOfState,
  editorKit,
  generationOf,
  nodeFromHtml,
  nodeToHtml,
  replaceWithHtml,
  stateFromHtml,
} from "./schema.ts";

const RICH = [
  "<h1>Title</h1>",
  '<p>Hello <strong>bold</strong> <em>it</em> <a href="https://example.com">link</a> <code>x</code></p>',
  '<ul data-type="taskList"><li data-type="taskItem" data-checked="true"><p>done</p></li></ul>',
  "<ol><li><p>one</p></li></ol>",
  '<pre><code class="language-js">let x = 1;</code></pre>',
  "<blockquote><p>quote</p></blockquote>",
  "<table><tbody><tr><th><p>h</p></th></tr><tr><td><p>c</p></td></tr></tbody></table>",
  '<img src="https://example.com/a.png" alt="a">',
  '<p><span data-type="mention" data-id="u1" data-label="Ann">@Ann</span></p>',
].join("");

describe("schema", () => {
  it("parses and serialises like @tiptap/html's server functions", () => {
    const node = nodeFromHtml(RICH);
    expect(node.toJSON()).toEqual(generateJSON(RICH, editorKit().extensions));
    expect(nodeToHtml(node)).toBe(generateHTML(node.toJSON(), editorKit().extensions));
  });

  it("round-trips stored HTML through a Yjs state, sanitised", () => {
    const state = stateFromHtml(`${RICH}<p onclick="x()">safe<script>alert(1)</script></p>`);
    const { html, stripped } = contentOfState(state);
    expect(html).toContain("<h1>Title</h1>");
    expect(html).toContain('data-type="taskItem"');
    expect(html).toContain("<table");
    expect(html).not.toContain("onclick");
    expect(html).not.toContain("<script");
    expect(stripped).toContain("Hello bold it link x");
    const doc = new Y.Doc();
    Y.applyUpdate(doc, state);
    expect(generationOf(doc)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("gives every build a new generation", () => {
    const a = new Y.Doc();
    const b = new Y.Doc();
    Y.applyUpdate(a, stateFromHtml("<p>x</p>"));
    Y.applyUpdate(b, stateFromHtml("<p>x</p>"));
    expect(generationOf(a)).not.toBe(generationOf(b));
  });

  it("replaces content as a diff that converges with a concurrent copy", () => {
    const server = new Y.Doc();
    Y.applyUpdate(server, stateFromHtml("<p>one</p><p>two</p>"));
    const client = new Y.Doc();
    Y.applyUpdate(client, Y.encodeStateAsUpdate(server));
    replaceWithHtml(server, "<p>one</p><p>three</p>", "test");
    Y.applyUpdate(client, Y.encodeStateAsUpdate(server, Y.encodeStateVector(client)));
    expect(contentOfState(Y.encodeStateAsUpdate(client)).html).toBe("<p>one</p><p>three</p>");
    expect(client.getXmlFragment(DOCUMENT_FIELD).length).toBe(2);
  });

  it("keeps a mention typed in the live editor in the derived HTML, so it notifies", () => {
    const userId = "0b7e4c1a-5f1e-4a57-9d7e-3c2f1a0b9e11";
    // What the browser's Collaboration extension writes for a paragraph with a mention node.
    const doc = new Y.Doc();
    prosemirrorJSONToYXmlFragment(
      editorKit().schema,
      {
        type: "doc",
        content: [
          {
            type: "paragraph",
            content: [
              { type: "text", text: "Ping " },
              { type: "mention", attrs: { id: userId, label: "Ann Lee", entityName: "user_mention" } },
              { type: "text", text: " please" },
            ],
          },
        ],
      },
      doc.getXmlFragment(DOCUMENT_FIELD),
    );
    const { html, stripped } = contentOfState(Y.encodeStateAsUpdate(doc));
    expect(html).toBe(
      `<p>Ping <mention-component entity_identifier="${userId}" entity_name="user_mention" label="Ann Lee"></mention-component> please</p>`,
    );
    expect(stripped).toContain("Ping");
    expect(mentionedUserIds(html)).toEqual([userId]);
  });

  it("reads stored mentions in both the stored and tiptap's default form", () => {
    const userId = "0b7e4c1a-5f1e-4a57-9d7e-3c2f1a0b9e11";
    const stored = `<p><mention-component entity_identifier="${userId}" entity_name="user_mention" label="Ann"></mention-component></p>`;
    expect(contentOfState(stateFromHtml(stored)).html).toBe(stored);
    const legacy = `<p><span data-type="mention" data-id="${userId}" data-label="Ann">@Ann</span></p>`;
    expect(contentOfState(stateFromHtml(legacy)).html).toBe(stored);
  });
});
