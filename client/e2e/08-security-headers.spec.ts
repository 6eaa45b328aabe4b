/**
 * The app under its own Content-Security-Policy (live-server/src/http/security-headers.ts): the
 * shell carries the policy and refuses framing, and the parts that most need the policy's
 * allowances — the theme script, the live socket, the lazily loaded editor with its injected
 * styles, a code block, an image uploaded through the signed asset flow and shown from the
 * asset URL — run without a single CSP violation. The spec signs up its own user, workspace and
 * project through the API.
 */
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { PageView } from "./pages/project-pages-page.ts";
import { signUpWithProject } from "./support/setup.ts";
import { type Fixture, WorkItemsApi } from "./support/work-items-api.ts";

const user = { email: "sam@csp.test", password: "Copper-harbour-kite-48", first: "Sam", last: "Secure" };

/** A valid 2×2 PNG (red pixels). */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==",
  "base64",
);

type Violation = { directive: string; blocked: string; sample: string; source?: string };

/** Every `securitypolicyviolation` the page reports, and the console's CSP complaints. */
async function watchViolations(page: Page): Promise<Violation[]> {
  const seen: Violation[] = [];
  await page.exposeFunction("__reportCsp", (v: Violation) => {
    seen.push(v);
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      const report = (window as unknown as { __reportCsp: (v: unknown) => void }).__reportCsp;
      report({
        directive: e.violatedDirective,
        blocked: e.blockedURI,
        sample: e.sample,
        source: `${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`,
      });
    });
  });
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) {
      seen.push({ directive: "console", blocked: "", sample: message.text() });
    }
  });
  return seen;
}

test.describe
  .serial("security headers", () => {
    let context: BrowserContext;
    let page: Page;
    let api: WorkItemsApi;
    let f: Fixture;
    let violations: Violation[];

    test.beforeAll(async ({ browser, baseURL }: { browser: Browser; baseURL: string | undefined }) => {
      const origin = baseURL ?? "http://localhost:3100";
      context = await browser.newContext({ baseURL: origin });
      page = await context.newPage();
      violations = await watchViolations(page);
      api = new WorkItemsApi(page, origin);
      f = await signUpWithProject(api, user, { slug: "csp-e2e", name: "Policies", identifier: "POL" });
    });

    test.afterAll(async () => {
      await context?.close();
    });

    test("the shell carries the policy, and a page with code and an uploaded image breaks none of it", async () => {
      const shell = await page.request.get("/");
      const csp = shell.headers()["content-security-policy"] ?? "";
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(shell.headers()["x-frame-options"]).toBe("DENY");
      expect(shell.headers()["referrer-policy"]).toBe("strict-origin-when-cross-origin");

      const created = await api.post<{ id: string }>(`/api/workspaces/${f.slug}/projects/${f.projectId}/pages/`, {
        name: "Under policy",
      });
      const view = new PageView(page);
      await view.open(f.slug, f.projectId, created.id);
      // The theme script (a file, not inline) ran before first paint.
      await expect(page.locator("html")).toHaveAttribute("data-theme", /^(light|dark)$/);

      // A code block.
      await view.typeInBody("Intro");
      await page.keyboard.press("Enter");
      await page.keyboard.type("/code");
      await page.keyboard.press("Enter");
      await page.keyboard.type("const answer = 42;");
      await expect(view.body.locator("pre code")).toContainText("const answer = 42;");

      // An image through the slash menu: signed upload, confirm, shown from the asset URL.
      await page.keyboard.press("ControlOrMeta+End");
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("Enter");
      const chooser = page.waitForEvent("filechooser");
      await page.keyboard.type("/image");
      await page.keyboard.press("Enter");
      await (await chooser).setFiles({ name: "dot.png", mimeType: "image/png", buffer: PNG });
      const image = view.body.locator('img[src*="/api/assets/"]');
      await expect(image).toBeVisible({ timeout: 15_000 });
      await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(2);

      // Reloaded from the server (live socket, lazily loaded editor chunk): still within the policy.
      await page.reload();
      await expect(view.body.locator('img[src*="/api/assets/"]')).toBeVisible();
      await expect(view.body.locator("pre code")).toContainText("const answer = 42;");

      expect(violations).toEqual([]);
    });

    test("started without APP_BASE_URL, the server's policy is one the browser takes whole", async ({ browser }) => {
      // This run's server has APP_BASE_URL; `npm start` without it trusts the loopback names of
      // PORT, [::1] among them. The policy such a server sends, on a page of its own origin: the
      // browser must not log it as broken (it did: "invalid source: 'ws://[::1]:3000'").
      const { loadConfig } = await import("../../live-server/src/config.ts");
      const { pagePolicy } = await import("../../live-server/src/http/security-headers.ts");
      const policy = pagePolicy(loadConfig({ DATA_DIR: "unused", SECRET_KEY: "x".repeat(40), PORT: "3000" }));
      expect(policy).toContain("connect-src 'self'");
      const probe = await browser.newPage();
      const complaints: string[] = [];
      probe.on("console", (message) => {
        if (/Content Security Policy/i.test(message.text())) complaints.push(message.text());
      });
      await probe.route("http://localhost:3000/**", (route) =>
        route.fulfill({
          status: 200,
          headers: { "content-type": "text/html", "content-security-policy": policy },
          body: "<!doctype html><title>Policy</title><p id=ready>ready</p>",
        }),
      );
      await probe.goto("http://localhost:3000/");
      await expect(probe.locator("#ready")).toHaveText("ready");
      // A socket to its own origin is allowed (only this one is opened; nothing answers it).
      const allowed = await probe.evaluate(
        () =>
          new Promise<boolean>((resolve) => {
            const blocked = () => resolve(false);
            document.addEventListener("securitypolicyviolation", blocked);
            try {
              const socket = new WebSocket("ws://localhost:3000/live");
              socket.onopen = () => {
                socket.close();
                resolve(true);
              };
              socket.onerror = () => resolve(true);
              socket.onclose = () => resolve(true);
            } catch {
              resolve(false);
            }
          }),
      );
      expect(allowed).toBe(true);
      expect(complaints).toEqual([]);
      await probe.close();
    });

    test("another site cannot frame the app", async ({ browser, baseURL }) => {
      const stranger = await browser.newPage();
      const refused = stranger.waitForEvent("console", (m) => /frame-ancestors/.test(m.text()));
      await stranger.setContent(`<iframe id="app" src="${baseURL}/"></iframe>`);
      await refused;
      await expect(stranger.frameLocator("#app").locator("#root")).toHaveCount(0);
      await stranger.close();
    });
  });
