import { describe, expect, it } from "vitest";
import { htmlToPlainText, isEmptyRichText, sanitizeRichText } from "./sanitize.ts";

describe("rich text sanitising", () => {
  it("removes scripts, handlers, javascript: links and iframes", () => {
    const dirty =
      '<p onclick="x()">Hi<script>alert(1)</script></p><a href="javascript:alert(1)">x</a><iframe src="https://e.x"></iframe><img src="x" onerror="alert(1)">';
    const clean = sanitizeRichText(dirty);
    expect(clean).not.toMatch(/script|onclick|onerror|javascript:|iframe/i);
    expect(clean).toContain("<p>Hi</p>");
  });

  it("keeps the editor's formatting, task lists, code languages and safe links", () => {
    const html =
      '<h2>Title</h2><ul data-type="taskList"><li data-type="taskItem" data-checked="true">done</li></ul><pre><code class="language-ts">let a = 1;</code></pre><p><a href="https://example.com" target="_blank">link</a></p>';
    const clean = sanitizeRichText(html);
    expect(clean).toContain('data-checked="true"');
    expect(clean).toContain('class="language-ts"');
    expect(clean).toContain('rel="noopener noreferrer nofollow"');
  });

  it("derives plain text and recognises empty documents", () => {
    expect(htmlToPlainText("<p>Hello <b>world</b></p><p>again &amp; more</p>")).toBe("Hello world again & more");
    expect(
      htmlToPlainText(
        '<p><mention-component entity_name="user_mention" entity_identifier="u1" label="Dan &amp; Co"></mention-component> can you check?</p>',
      ),
    ).toBe("@Dan & Co can you check?");
    expect(isEmptyRichText("<p></p>")).toBe(true);
    expect(isEmptyRichText("  ")).toBe(true);
    expect(isEmptyRichText("<p>x</p>")).toBe(false);
  });
});
