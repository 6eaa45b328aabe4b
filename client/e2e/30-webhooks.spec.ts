/**
 * Webhooks (Settings → Webhooks, workspace admins): Wren opens the empty list, adds a webhook
 * pointing at a receiver this spec starts on loopback (the e2e server runs with
 * WEBHOOK_ALLOW_PRIVATE), copies the secret shown once, changes a work item, and finds the
 * delivery — signed with that secret — in the webhook's delivery log, then redelivers it. A second
 * tab follows webhooks made, switched off and deleted elsewhere without a reload. The
 * screens at phone width and in the dark theme. The spec signs up its own user and workspace.
 */
import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { channelSynced } from "./support/live-socket.ts";
import { openSession, signUpWithProject } from "./support/setup.ts";
import { shoot } from "./support/shots.ts";
import type { Fixture, WorkItemsApi } from "./support/work-items-api.ts";

const wren = { email: "wren@webhooks.test", password: "Signal-harbour-gull-58", first: "Wren", last: "Hooker" };

type Received = { headers: http.IncomingHttpHeaders; body: string };

test.describe
  .serial("webhooks", () => {
    test.describe.configure({ timeout: 90_000 });

    let context: BrowserContext;
    let page: Page;
    let api: WorkItemsApi;
    let f: Fixture;
    let server: http.Server;
    let receiverUrl: string;
    let secret = "";
    const received: Received[] = [];

    test.beforeAll(async ({ browser, baseURL }: { browser: Browser; baseURL: string | undefined }) => {
      server = http.createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (c: Buffer) => chunks.push(c));
        req.on("end", () => {
          received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
          res.writeHead(200, { "content-type": "text/plain" }).end("received");
        });
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tideline`;
      const origin = baseURL ?? "http://localhost:3100";
      ({ context, page, api } = await openSession(browser, origin));
      f = await signUpWithProject(api, wren, { slug: "webhooks-e2e", name: "Signals", identifier: "WH" });
    });

    test.afterAll(async () => {
      await context?.close();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    });

    test("an admin adds a webhook, a work-item change reaches the receiver signed and shows in the log", async () => {
      await page.goto(`/${f.slug}/settings/`);
      await page
        .getByRole("navigation", { name: "Workspace settings" })
        .getByRole("link", { name: "Webhooks" })
        .click();
      await expect(page).toHaveURL(new RegExp(`/${f.slug}/settings/webhooks/$`));
      await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();
      await expect(page.getByText("No webhooks yet")).toBeVisible();
      await shoot(page, "webhooks-empty");

      await page.getByRole("button", { name: "Add webhook" }).click();
      const dialog = page.getByRole("dialog", { name: "Add webhook" });
      await dialog.getByLabel("Payload URL").fill(receiverUrl);
      // Individual events: the work items only.
      await dialog.getByLabel("Select individual events").check();
      for (const name of ["Projects", "Cycles", "Modules", "Work item comments", "Intake requests"]) {
        await dialog.getByRole("checkbox", { name: new RegExp(`^${name}`) }).uncheck();
      }
      await shoot(page, "webhooks-create");
      await dialog.getByRole("button", { name: "Create webhook" }).click();

      const created = page.getByRole("dialog", { name: "Webhook created" });
      const key = created.getByTestId("webhook-secret");
      await expect(key).toHaveText(/^tideline_wh_[0-9a-f]{48}$/);
      secret = (await key.textContent()) ?? "";
      await expect(created.getByRole("button", { name: "Copy" })).toBeVisible();
      await expect(created.getByRole("button", { name: "Download" })).toBeVisible();
      await shoot(page, "webhooks-secret");
      await created.getByRole("button", { name: "Done" }).click();
      await expect(created).toBeHidden();

      const row = page.getByRole("listitem").filter({ hasText: receiverUrl });
      await expect(row).toContainText("Active");
      await expect(row).toContainText("Work items");
      await expect(row.getByRole("switch", { name: `Webhook active: ${receiverUrl}` })).toBeChecked();
      await shoot(page, "webhooks-list");

      // A work item changes: the receiver gets the delivery, and its signature verifies.
      const item = await api.createWorkItem(f, { name: "Ship the webhooks" });
      await api.updateWorkItem(f, item.id, { priority: "high" });
      await expect.poll(() => received.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
      for (const r of received) {
        expect(r.headers["x-webhook-signature"]).toBe(createHmac("sha256", secret).update(r.body).digest("hex"));
        expect(r.headers["user-agent"]).toBe("Tideline-Webhook");
      }
      const bodies = received.map((r) => JSON.parse(r.body) as { event: string; action: string; data: { id: string } });
      expect(bodies.map((b) => `${b.event}.${b.action}`).sort()).toEqual(["issue.created", "issue.updated"]);
      expect(bodies.every((b) => b.data.id === item.id)).toBe(true);

      // The delivery log on the webhook's page.
      await row.getByRole("link", { name: receiverUrl }).click();
      await expect(page).toHaveURL(new RegExp(`/${f.slug}/settings/webhooks/[0-9a-f-]{36}/$`));
      await expect(page.getByRole("heading", { name: receiverUrl, level: 1 })).toBeVisible();
      const log = page.getByRole("list", { name: "Recent deliveries" });
      await expect(async () => {
        await page.getByRole("button", { name: "Refresh" }).click();
        await expect(log.getByRole("listitem")).toHaveCount(2, { timeout: 1000 });
      }).toPass({ timeout: 20_000 });
      const createdRow = log.getByRole("listitem").filter({ hasText: "issue.created" });
      await expect(createdRow).toContainText("Delivered · 200");
      await createdRow.locator("summary").click();
      await expect(createdRow).toContainText('"name": "Ship the webhooks"');
      await expect(createdRow).toContainText("received");
      await shoot(page, "webhook-detail");

      // Redeliver: the same body again.
      const before = received.length;
      await createdRow.getByRole("button", { name: "Redeliver" }).click();
      await expect(page.getByText("Delivery queued again")).toBeVisible();
      await expect.poll(() => received.length, { timeout: 20_000 }).toBe(before + 1);
      const again = received.at(-1);
      const original = received.find((r) => (JSON.parse(r.body) as { action: string }).action === "created");
      expect(again?.body).toBe(original?.body);
    });

    test("another open tab follows a webhook made, switched off and deleted elsewhere, without a reload", async () => {
      const { id: workspaceId } = await api.get<{ id: string }>(`/api/workspaces/${f.slug}/`);
      const other = await context.newPage();
      try {
        const synced = channelSynced(other, `workspace.${workspaceId}`);
        await other.goto(`/${f.slug}/settings/webhooks/`);
        await expect(other.getByRole("listitem").filter({ hasText: receiverUrl })).toBeVisible();
        await synced;
        await other.evaluate(() => {
          (window as { __notReloaded?: boolean }).__notReloaded = true;
        });
        // Another admin's screen (here: the API, as this admin) makes a webhook, switches it off, deletes it.
        const url = `${receiverUrl}/elsewhere`;
        const made = await api.post<{ id: string }>(`/api/workspaces/${f.slug}/webhooks/`, { url, cycle: true });
        const row = other.getByRole("listitem").filter({ hasText: url });
        await expect(row).toBeVisible();
        await api.patch(`/api/workspaces/${f.slug}/webhooks/${made.id}/`, { is_active: false });
        await expect(row).toContainText("Off");
        await api.delete(`/api/workspaces/${f.slug}/webhooks/${made.id}/`);
        await expect(row).toHaveCount(0);
        expect(await other.evaluate(() => (window as { __notReloaded?: boolean }).__notReloaded)).toBe(true);
      } finally {
        await other.close();
      }
    });

    test("keyboard: the active switch and the actions menu", async () => {
      await page.goto(`/${f.slug}/settings/webhooks/`);
      const toggle = page.getByRole("switch", { name: `Webhook active: ${receiverUrl}` });
      await toggle.focus();
      await page.keyboard.press("Space");
      await expect(toggle).not.toBeChecked();
      await expect(page.getByRole("listitem").filter({ hasText: receiverUrl })).toContainText("Off");
      await page.keyboard.press("Space");
      await expect(toggle).toBeChecked();
      // The "on" is sent once the "off" is answered: stored before the next test loads the screen.
      const active = () =>
        api
          .get<{ url: string; is_active: boolean }[]>(`/api/workspaces/${f.slug}/webhooks/`)
          .then((hooks) => hooks.find((hook) => hook.url === receiverUrl)?.is_active);
      await expect.poll(active, { timeout: 10_000 }).toBe(true);
      await page.getByRole("button", { name: `Actions for ${receiverUrl}` }).focus();
      await page.keyboard.press("Enter");
      await expect(page.getByRole("menuitem", { name: "Regenerate secret key" })).toBeVisible();
      await page.keyboard.press("Escape");
    });

    test("switched off and straight back on, it stays on: a slow first answer and its live echo change nothing", async () => {
      await page.goto(`/${f.slug}/settings/webhooks/`);
      const row = page.getByRole("listitem").filter({ hasText: receiverUrl });
      const toggle = page.getByRole("switch", { name: `Webhook active: ${receiverUrl}` });
      await expect(toggle).toBeChecked();
      // The "off" is held until the "on" has been clicked; the client must not send the "on"
      // before the "off" is answered, nor show the "off" answer or its live event over it.
      const patches: string[] = [];
      let releaseOff: () => void = () => undefined;
      const offHeld = new Promise<void>((resolve) => {
        releaseOff = resolve;
      });
      const hookPath = "**/api/workspaces/*/webhooks/*/";
      await page.route(hookPath, async (route) => {
        if (route.request().method() !== "PATCH") return route.continue();
        const body = route.request().postDataJSON() as { is_active?: boolean };
        patches.push(body.is_active ? "on" : "off");
        if (body.is_active === false) await offHeld;
        await route.continue();
      });
      try {
        await toggle.click();
        await expect(toggle).not.toBeChecked();
        await toggle.click();
        await expect(toggle).toBeChecked();
        expect(patches).toEqual(["off"]);
        const onStored = page.waitForResponse(
          (r) => r.request().method() === "PATCH" && r.request().postDataJSON()?.is_active === true,
        );
        releaseOff();
        expect((await onStored).status()).toBe(200);
        expect(patches).toEqual(["off", "on"]);
        await expect(row).toContainText("Active");
        await expect(toggle).toBeChecked();
      } finally {
        releaseOff();
        await page.unroute(hookPath);
      }
      await page.reload();
      await expect(page.getByRole("switch", { name: `Webhook active: ${receiverUrl}` })).toBeChecked();
    });

    test("the screens at phone width and in the dark theme", async () => {
      await page.emulateMedia({ colorScheme: "dark" });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`/${f.slug}/settings/webhooks/`);
      const row = page.getByRole("listitem").filter({ hasText: receiverUrl });
      await expect(row).toContainText("Active");
      await shoot(page, "webhooks-phone-dark");
      await row.getByRole("link", { name: receiverUrl }).click();
      await expect(page.getByRole("heading", { name: receiverUrl, level: 1 })).toBeVisible();
      const log = page.getByRole("list", { name: "Recent deliveries" });
      await expect(log.getByRole("listitem").first()).toBeVisible();
      // Nothing wider than the screen.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await shoot(page, "webhook-detail-phone-dark");
      await page.emulateMedia({ colorScheme: "light" });
    });
  });
