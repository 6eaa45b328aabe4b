import "fake-indexeddb/auto";
import { HTTPError } from "ky";
import { toast } from "sonner";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { i18next } from "../i18n";
import en from "../i18n/locales/en.json";
import { outbox, outboxState } from "../lib/offline/app-outbox";
import type { OutboxEntry } from "../lib/offline/outbox";
// Registers the work-item handlers on the app's outbox.
import { offlineComments } from "./offline-changes";
import { type Project, projects } from "./projects";
import { session } from "./session";
import { addComment, loadWorkItemDetail, workItemDetail } from "./work-item-detail";
import {
  createWorkItem,
  getProjectWorkItems,
  getWorkItem,
  updateWorkItem,
  upsertWorkItems,
  type WorkItem,
  workItems,
} from "./work-items";

const SLUG = "acme";
const PROJECT = "p-offline";

/**
 * A stand-in for the server's side of the outbox contract (one answer per client mutation id;
 * the real one is live-server/src/services/client-mutations.ts, tested on a real database).
 */
const server = {
  calls: [] as { method: string; url: string; mutationId: string }[],
  refuse: new Set<string>(),
  /** Names the server refuses (a stand-in for a validation it does). */
  refuseNames: new Set<string>(),
  answers: new Map<string, unknown>(),
  items: new Map<string, WorkItem>(),
  nextSequence: 100,
};

let online = true;
let clock = Date.parse("2026-11-25T10:00:00.000Z");
function later(): string {
  clock += 60_000;
  return new Date(clock).toISOString();
}

async function send(entry: OutboxEntry): Promise<unknown> {
  server.calls.push({ method: entry.method, url: entry.url, mutationId: entry.mutationId });
  if (server.refuse.has(entry.url) || server.refuseNames.has(String(entry.body.name))) {
    throw new HTTPError(
      new Response(JSON.stringify({ error: "Refused by the server" }), { status: 400 }),
      new Request(`http://server${entry.url}`),
      {} as ConstructorParameters<typeof HTTPError>[2],
    );
  }
  const earlier = server.answers.get(entry.mutationId);
  if (earlier) return earlier;
  let answer: WorkItem;
  if (entry.url.endsWith("/comments/")) {
    const comment = { id: `c-${server.nextSequence++}`, comment_html: entry.body.comment_html, comment_reactions: [] };
    server.answers.set(entry.mutationId, comment);
    return comment;
  }
  if (entry.method === "POST") {
    const sequence = server.nextSequence++;
    answer = { ...item(`real-${sequence}`, String(entry.body.name)), sequence_id: sequence, updated_at: later() };
  } else {
    const id = entry.url.split("/").at(-2) as string;
    const current = server.items.get(id) ?? item(id, "?");
    answer = { ...current, ...(entry.body as Partial<WorkItem>), updated_at: later() };
  }
  server.items.set(answer.id, answer);
  server.answers.set(entry.mutationId, answer);
  return answer;
}

const serverItems = server.items;

function item(id: string, name: string, extra: Partial<WorkItem> = {}): WorkItem {
  return {
    id,
    name,
    sequence_id: 1,
    project_id: PROJECT,
    workspace_id: "w1",
    state_id: null,
    state__group: null,
    priority: "none",
    parent_id: null,
    estimate_point: null,
    start_date: null,
    target_date: null,
    sort_order: 65535,
    completed_at: null,
    archived_at: null,
    is_draft: false,
    is_epic: false,
    type_id: null,
    cycle_id: null,
    module_ids: [],
    assignee_ids: [],
    label_ids: [],
    sub_issues_count: 0,
    link_count: 0,
    attachment_count: 0,
    created_at: "2026-11-25T09:00:00.000Z",
    updated_at: "2026-11-25T09:00:00.000Z",
    created_by: null,
    updated_by: null,
    ...extra,
  };
}

function seed(id: string, name: string, extra: Partial<WorkItem> = {}): WorkItem {
  const seeded = item(id, name, extra);
  serverItems.set(id, seeded);
  upsertWorkItems(PROJECT, [seeded]);
  return seeded;
}

const refusals = () =>
  toast
    .getHistory()
    .map((t) => ("title" in t ? String(t.title) : ""))
    .filter((title) => title.startsWith("Couldn't save"));

beforeEach(() => {
  outbox.connect({ send, isOnline: () => online });
  online = true;
  server.calls.length = 0;
  server.refuse.clear();
  server.refuseNames.clear();
});

afterEach(() => {
  outbox.close();
});

describe("work-item changes made offline", () => {
  it("are shown at once, marked waiting, and sent once each, in order, when the network is back", async () => {
    seed("w-1", "Plan the launch");
    seed("w-2", "Write the memo");
    workItems.cache.since.set(PROJECT, "2026-11-25T09:30:00.000Z");
    online = false;
    await updateWorkItem(SLUG, PROJECT, "w-1", { name: "Plan the launch party" });
    await updateWorkItem(SLUG, PROJECT, "w-2", { sort_order: 5 });
    expect(getWorkItem("w-1")?.name).toBe("Plan the launch party");
    expect(getWorkItem("w-2")?.sort_order).toBe(5);
    expect(outboxState.count).toBe(2);
    expect(outboxState.waiting).toEqual({ "w-1": 1, "w-2": 1 });
    expect(server.calls).toHaveLength(0);

    online = true;
    await outbox.flush();
    expect(server.calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      `PATCH /api/workspaces/${SLUG}/projects/${PROJECT}/issues/w-1/`,
      `PATCH /api/workspaces/${SLUG}/projects/${PROJECT}/issues/w-2/`,
    ]);
    expect(new Set(server.calls.map((c) => c.mutationId)).size).toBe(2);
    expect(outboxState.count).toBe(0);
    // The server's copies, which the next remote change may replace again (no longer held).
    expect(getWorkItem("w-1")?.updated_at).toBe(serverItems.get("w-1")?.updated_at);
    // Newer than what others changed meanwhile: the catch-up must still ask from the old mark.
    expect(workItems.cache.since.get(PROJECT)).toBe("2026-11-25T09:30:00.000Z");
  });

  it("a change the server refuses is rolled back with a toast naming it; a later waiting change stays", async () => {
    seed("w-3", "Old name", { priority: "low", target_date: null });
    server.refuseNames.add("Refused name");
    online = false;
    await updateWorkItem(SLUG, PROJECT, "w-3", { name: "Refused name", priority: "high" });
    await updateWorkItem(SLUG, PROJECT, "w-3", { priority: "urgent", target_date: "2026-12-01" });
    expect(getWorkItem("w-3")?.name).toBe("Refused name");
    online = true;
    await outbox.flush();
    // The refused change's name is undone; its priority was set again by the later change, which the server applied.
    expect(getWorkItem("w-3")?.name).toBe("Old name");
    expect(getWorkItem("w-3")?.priority).toBe("urgent");
    expect(getWorkItem("w-3")?.target_date).toBe("2026-12-01");
    expect(refusals()).toContain("Couldn't save 'Rename Old name'");
    expect(outboxState.count).toBe(0);
  });

  it("an item created offline is announced with its real number once it reaches the server", async () => {
    await i18next.init({ resources: { en: { translation: en } }, lng: "en", interpolation: { escapeValue: false } });
    projects.bySlug[SLUG] = [{ id: PROJECT, identifier: "OFF" } as Project];
    online = false;
    await createWorkItem(SLUG, PROJECT, { name: "Announced later" });
    const toasts = () => toast.getHistory().map((t) => ("title" in t ? String(t.title) : ""));
    expect(toasts().filter((title) => title.startsWith("OFF-"))).toEqual([]);
    online = true;
    await outbox.flush();
    const sequence = server.nextSequence - 1;
    expect(toasts()).toContain(`OFF-${sequence} created: “Announced later” reached the server`);
    delete projects.bySlug[SLUG];
  });

  it("an item created offline gets its real id when sent, and its later edits follow it", async () => {
    online = false;
    const placeholder = await createWorkItem(SLUG, PROJECT, { name: "Made offline" });
    expect(placeholder.id.startsWith("temp-")).toBe(true);
    expect(getWorkItem(placeholder.id)?.name).toBe("Made offline");
    await updateWorkItem(SLUG, PROJECT, placeholder.id, { name: "Made offline, renamed" });
    expect(outboxState.waiting[placeholder.id]).toBe(2);

    online = true;
    await outbox.flush();
    const [created, renamed] = server.calls;
    expect(created?.method).toBe("POST");
    expect(renamed?.url).toMatch(/\/issues\/real-\d+\/$/);
    expect(getWorkItem(placeholder.id)).toBeUndefined();
    const real = getProjectWorkItems(PROJECT).find((i) => i.name === "Made offline, renamed");
    expect(real?.id).toMatch(/^real-/);
    expect(outboxState.count).toBe(0);
  });

  it("a refused offline create takes its placeholder and its waiting edits away", async () => {
    online = false;
    const placeholder = await createWorkItem(SLUG, PROJECT, { name: "Never made" });
    await updateWorkItem(SLUG, PROJECT, placeholder.id, { priority: "urgent" });
    server.refuse.add(`/api/workspaces/${SLUG}/projects/${PROJECT}/issues/`);
    online = true;
    await outbox.flush();
    expect(server.calls).toHaveLength(1);
    expect(getWorkItem(placeholder.id)).toBeUndefined();
    expect(refusals()).toContain("Couldn't save 'Create Never made'");
    expect(outboxState.count).toBe(0);
  });

  it("survive a reload: the next page shows them again and sends them", async () => {
    seed("w-4", "Before reload");
    await outbox.start("user-reload");
    online = false;
    await updateWorkItem(SLUG, PROJECT, "w-4", { name: "Changed before reload" });
    outbox.close();
    // The new page's cache starts from the server's copy.
    upsertWorkItems(PROJECT, [serverItems.get("w-4") as WorkItem]);
    expect(getWorkItem("w-4")?.name).toBe("Before reload");

    await outbox.start("user-reload");
    expect(getWorkItem("w-4")?.name).toBe("Changed before reload");
    expect(outboxState.waiting["w-4"]).toBe(1);
    online = true;
    await outbox.flush();
    expect(server.calls).toHaveLength(1);
    expect(serverItems.get("w-4")?.name).toBe("Changed before reload");
    await outbox.forget();
  });

  it("a comment made offline shows at once, marked, and is sent when the network is back", async () => {
    seed("w-5", "Talk about it");
    session.user = {
      id: "u-1",
      first_name: "Alice",
      last_name: "Away",
      display_name: "alice",
      avatar_url: null,
    } as unknown as typeof session.user;
    online = false;
    // Offline the detail opens from the cached item (the request can't be made here either).
    expect((await loadWorkItemDetail(SLUG, PROJECT, "w-5")).status).toBe("ready");
    expect(await addComment(SLUG, PROJECT, "w-5", "<p>Written offline</p>")).toBe(true);
    const [shown] = workItemDetail.byId["w-5"]?.comments ?? [];
    expect(shown?.id.startsWith("temp-")).toBe(true);
    expect(outboxState.waiting[shown?.id ?? ""]).toBe(1);
    expect(offlineComments("w-5").map((c) => c.comment_html)).toEqual(["<p>Written offline</p>"]);

    online = true;
    await outbox.flush();
    expect(server.calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      `POST /api/workspaces/${SLUG}/projects/${PROJECT}/issues/w-5/comments/`,
    ]);
    expect(workItemDetail.byId["w-5"]?.comments.map((c) => c.id)).toEqual([expect.stringMatching(/^c-/)]);
    expect(offlineComments("w-5")).toEqual([]);
  });
});
