/**
 * GET /api/instances/live-metrics/: what this instance holds open, for instance admins only.
 */
import { issueDocumentName, projectChannelName } from "@tideline/shared";
import { afterAll, beforeAll, expect, it } from "vitest";
import { client, setupInstance } from "../../test/harness.ts";
import { createFixture, createIssue, type Fixture } from "../routes/issues/test-support.ts";
import type { LiveMetricsSnapshot } from "./extensions/metrics.ts";
import { eventually, type LiveServer, openTab, startLiveServer, synced, type Tab } from "./test-support.ts";

let s: LiveServer;
let f: Fixture;
const tabs: Tab[] = [];

beforeAll(async () => {
  s = await startLiveServer();
  f = await createFixture(s);
  await setupInstance(s.db, f.w.admin);
});

afterAll(async () => {
  for (const t of tabs) t.destroy();
  await s.close();
});

const URL = "/api/instances/live-metrics/";

it("counts open documents and connections for an instance admin", async () => {
  const item = await createIssue(s, f.w.member, f.project.url);
  const t = openTab(s.url, f.w.member);
  tabs.push(t);
  const docs = [t.open(issueDocumentName(item.id)), t.open(projectChannelName(f.project.id))];
  for (const doc of docs) await synced(doc);
  const refused = t.open(issueDocumentName(f.foreign.id));
  await eventually(() => expect(refused.refused).toBe("forbidden"));

  const res = await client(s.app, f.w.admin).get(URL);
  expect(res.statusCode).toBe(200);
  const body = res.json() as LiveMetricsSnapshot;
  expect(body).toMatchObject({
    instance_id: s.app.ctx.live.instanceId,
    documents: 2,
    connections: 1,
    documents_by_kind: { issue: 1, project: 1 },
  });
  expect(body.totals.connections_accepted).toBeGreaterThanOrEqual(2);
  expect(body.totals.connections_refused).toBeGreaterThanOrEqual(1);
  expect(body.memory.rss_bytes).toBeGreaterThan(0);
});

it("is refused to anyone else", async () => {
  expect((await client(s.app, null).get(URL)).statusCode).toBe(401);
  expect((await client(s.app, f.w.member).get(URL)).statusCode).toBe(403);
});
