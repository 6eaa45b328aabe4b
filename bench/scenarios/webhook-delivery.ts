/**
 * Scenario — webhook delivery latency (issue 20: "webhook delivery latency from a change to the
 * receiver"). A server with WEBHOOK_ALLOW_PRIVATE=true (the receiver is on loopback), a webhook
 * for work items pointing at a plain node:http receiver in this process, then `--changes` work
 * item PATCHes one after another: each measured from just before the PATCH is sent to the
 * moment the receiver has read the delivery that carries it (the outbox job written in the
 * PATCH's transaction, the worker woken at commit, HMAC, HTTP). Also the PATCH's own time, for
 * scale. Figures: median and p99 of both (ms).
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { figures, median, numberFlag, percentile, type Scenario } from "../lib/scenario.ts";
import { createStore, startServer } from "../lib/server.ts";
import { setupFixture } from "../lib/setup.ts";

type Delivery = { at: number; body: { action?: string; data?: { id?: string; name?: string } } };

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

export const scenario: Scenario = {
  id: "webhook-delivery",
  title: "Webhooks: from a work-item change to the receiver, one change at a time",
  defaults: { changes: 200, port: 3435 },
  async run(ctx) {
    const fig = figures("webhook-delivery", ctx);
    const changes = Math.max(numberFlag(ctx, "changes", 200), 1);
    // The receiver: records each delivery with the time it was read, answers 200.
    const waiting = new Map<string, (d: Delivery) => void>();
    const receiver = createServer(async (req, res) => {
      const text = await readBody(req);
      const at = performance.now();
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
      const body = JSON.parse(text) as Delivery["body"];
      const name = body.data?.name ?? "";
      waiting.get(name)?.({ at, body });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

    const store = await createStore(ctx, "webhook-delivery");
    const server = await startServer(ctx, {
      port: numberFlag(ctx, "port", 3435),
      store,
      env: { WEBHOOK_ALLOW_PRIVATE: "true" },
    });
    try {
      const fixture = await setupFixture(server.url, { log: ctx.log });
      const api = fixture.admin.api;
      await api.post(`/api/workspaces/${fixture.workspace.slug}/webhooks/`, { url: receiverUrl, issue: true });
      const item = await api.post<{ id: string }>(`${fixture.projectPath}/issues/`, { name: "Webhook bench 0" });
      const deliveredAfter = (name: string) =>
        new Promise<Delivery>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no delivery of "${name}" within 30 s`)), 30_000);
          waiting.set(name, (d) => {
            clearTimeout(timer);
            waiting.delete(name);
            resolve(d);
          });
        });
      const total: number[] = [];
      const patchMs: number[] = [];
      // Warm-up (JIT, the worker's first HTTP connection), not measured.
      for (let i = 1; i <= 5; i++) {
        const name = `Webhook warm-up ${i}`;
        const got = deliveredAfter(name);
        await api.patch(`${fixture.projectPath}/issues/${item.id}/`, { name });
        await got;
      }
      for (let i = 1; i <= changes; i++) {
        const name = `Webhook bench ${i}`;
        const got = deliveredAfter(name);
        const started = performance.now();
        await api.patch(`${fixture.projectPath}/issues/${item.id}/`, { name });
        patchMs.push(performance.now() - started);
        const delivery = await got;
        total.push(delivery.at - started);
      }
      ctx.log(
        `change → receiver: median ${median(total).toFixed(1)} ms, p99 ${percentile(total, 99).toFixed(1)} ms (${changes} changes)`,
      );
      return [
        fig("change to receiver: median", median(total), "ms", `${changes} work-item PATCHes, one at a time`),
        fig("change to receiver: p99", percentile(total, 99), "ms"),
        fig("PATCH: median", median(patchMs), "ms", "the change's own request, for scale"),
        fig("PATCH: p99", percentile(patchMs, 99), "ms"),
      ];
    } finally {
      await server.stop();
      await store.dispose();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  },
};
