import { describe, expect, it } from "vitest";
import {
  dateOnly,
  fileTypeLabel,
  formatDay,
  formatFileSize,
  groupReactions,
  isEmptyRichText,
  isHttpUrl,
  joinNames,
  linkLabel,
  normalizeLinkInput,
  relativeTime,
  subItemProgress,
  uploadPercent,
  workItemKey,
} from "./format";

describe("isEmptyRichText", () => {
  it("counts blank and an empty paragraph as empty", () => {
    for (const html of [null, undefined, "", "   ", "<p></p>", "<p> </p>", "<p><br></p>", "<p>&nbsp;</p>"]) {
      expect(isEmptyRichText(html)).toBe(true);
    }
  });
  it("counts text and images as content", () => {
    expect(isEmptyRichText("<p>x</p>")).toBe(false);
    expect(isEmptyRichText('<p><img src="/a.png"></p>')).toBe(false);
  });
});

describe("links", () => {
  it("accepts only absolute http(s) URLs", () => {
    expect(isHttpUrl("https://example.com/a?b=1")).toBe(true);
    expect(isHttpUrl("http://localhost:3000")).toBe(true);
    expect(isHttpUrl("javascript:alert(1)")).toBe(false);
    expect(isHttpUrl("ftp://example.com")).toBe(false);
    expect(isHttpUrl("example.com")).toBe(false);
    expect(isHttpUrl("")).toBe(false);
  });
  it("adds https:// to a bare host", () => {
    expect(normalizeLinkInput(" example.com/x ")).toBe("https://example.com/x");
    expect(normalizeLinkInput("http://a.b")).toBe("http://a.b");
    expect(normalizeLinkInput("javascript:alert(1)")).toBe("javascript:alert(1)");
    expect(normalizeLinkInput("not a url")).toBe("not a url");
  });
  it("labels a link by its title, else its URL without the scheme", () => {
    expect(linkLabel({ url: "https://x.dev/", title: "Docs" })).toBe("Docs");
    expect(linkLabel({ url: "https://x.dev/", title: null })).toBe("x.dev");
  });
});

describe("sizes and progress", () => {
  it("formats file sizes", () => {
    expect(formatFileSize(0)).toBe("0 B");
    expect(formatFileSize(1023)).toBe("1023 B");
    expect(formatFileSize(1536)).toBe("1.5 KB");
    expect(formatFileSize(5_242_880)).toBe("5 MB");
    expect(formatFileSize(150 * 1024)).toBe("150 KB");
  });
  it("rounds upload progress to whole percent within 0..100", () => {
    expect(uploadPercent(1, 3)).toBe(33);
    expect(uploadPercent(2, 3)).toBe(67);
    expect(uploadPercent(5, 5)).toBe(100);
    expect(uploadPercent(10, 5)).toBe(100);
    expect(uploadPercent(1, 0)).toBe(0);
  });
  it("labels file types by extension, else by MIME type", () => {
    expect(fileTypeLabel("application/pdf", "spec.pdf")).toBe("PDF");
    expect(fileTypeLabel("image/png", "shot")).toBe("PNG");
    expect(fileTypeLabel("", "noext")).toBe("FILE");
  });
});

describe("dates", () => {
  it("reads the first 10 characters as the day", () => {
    expect(dateOnly("2026-01-05T10:00:00Z")).toBe("2026-01-05");
    expect(dateOnly("nope")).toBe(null);
    expect(formatDay("2026-01-05")).toBe("Jan 05, 2026");
    expect(formatDay(null)).toBe("");
  });
  it("says how long ago in s, m, h, d, mo, y", () => {
    const now = new Date("2026-06-01T12:00:00Z");
    expect(relativeTime("2026-06-01T11:59:58Z", now)).toBe("just now");
    expect(relativeTime("2026-06-01T11:59:30Z", now)).toBe("30s ago");
    expect(relativeTime("2026-06-01T11:55:00Z", now)).toBe("5m ago");
    expect(relativeTime("2026-06-01T09:00:00Z", now)).toBe("3h ago");
    expect(relativeTime("2026-05-29T12:00:00Z", now)).toBe("3d ago");
    expect(relativeTime("2026-03-01T12:00:00Z", now)).toBe("3mo ago");
    expect(relativeTime("2024-05-01T12:00:00Z", now)).toBe("2y ago");
  });
});

describe("reactions and names", () => {
  it("groups reactions by emoji in order of first use and marks the viewer's", () => {
    const groups = groupReactions(
      [
        { reaction: "👍", actor: "a", actor_name: "Ada" },
        { reaction: "🎉", actor: "b", actor_name: "Bob" },
        { reaction: "👍", actor: "b", actor_name: "Bob" },
      ],
      "a",
    );
    expect(groups).toEqual([
      { emoji: "👍", count: 2, mine: true, names: ["Ada", "Bob"] },
      { emoji: "🎉", count: 1, mine: false, names: ["Bob"] },
    ]);
  });
  it("joins up to four names, then says +N more", () => {
    expect(joinNames([])).toBe("");
    expect(joinNames(["Ada"])).toBe("Ada");
    expect(joinNames(["Ada", "Bob"])).toBe("Ada and Bob");
    expect(joinNames(["A", "B", "C", "D", "E", "F"])).toBe("A, B, C, D and +2 more");
  });
});

describe("sub-item progress", () => {
  it("counts completed as done and orders the bar's segments by group", () => {
    const progress = subItemProgress({ backlog: ["1"], started: ["2", "3"], completed: ["4"], cancelled: ["5"] }, [
      "backlog",
      "unstarted",
      "started",
      "completed",
      "cancelled",
    ]);
    expect(progress.done).toBe(1);
    expect(progress.total).toBe(5);
    expect(progress.percent).toBe(20);
    expect(progress.segments.map((s) => s.count)).toEqual([1, 0, 2, 1, 1]);
  });
  it("is zero without sub-items", () => {
    expect(subItemProgress({}, ["completed"]).percent).toBe(0);
  });
});

it("builds keys", () => {
  expect(workItemKey("WEB", 12)).toBe("WEB-12");
  expect(workItemKey(null, 12)).toBe("#12");
});
