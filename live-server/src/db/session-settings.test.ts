import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { queryRows } from "./client.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("session settings", () => {
  it("every session takes one slip in a word as a trigram word match (the search's typos)", async () => {
    const [row] = await queryRows<{ threshold: string; typo: boolean; unrelated: boolean }>(
      t.db,
      sql`select current_setting('pg_trgm.word_similarity_threshold') as threshold,
        'chekout' <% 'Fix the checkout login loop' as typo,
        'dashboard' <% 'Fix the checkout login loop' as unrelated`,
    );
    expect(row).toEqual({ threshold: "0.4", typo: true, unrelated: false });
  });
});
