/**
 * The built app starts the way a self-hoster starts it and serves both the API and the client.
 * Screen-by-screen journeys live in their own spec files with page objects.
 */
import { expect, test } from "@playwright/test";

test("the server answers the API and serves the client without script errors", async ({ page, request }) => {
  const instance = await request.get("/api/instances/");
  expect(instance.status()).toBe(200);
  expect(instance.headers()["content-type"]).toContain("application/json");

  const pageErrors: Error[] = [];
  page.on("pageerror", (error) => pageErrors.push(error));
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  // React rendered something into the root element.
  await expect(page.locator("#root > *").first()).toBeAttached();
  expect(pageErrors).toEqual([]);
});
