import { existsSync } from "node:fs";
import { type Page, test } from "@playwright/test";

/**
 * A picture of the page in the test's output folder, attached to the report. Fonts and running
 * animations settle first so the picture is what a person sees. With `shotsPrefix`, a copy goes to
 * /tmp/shots/<prefix><name>.png too when that folder exists (for looking at a run's pictures in
 * one place).
 */
export async function shoot(page: Page, name: string, shotsPrefix?: string): Promise<void> {
  await page.evaluate(async () => {
    await document.fonts.ready;
    const ending = document.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime !== Infinity);
    await Promise.all(ending.map((a) => a.finished.catch(() => undefined)));
  });
  const path = test.info().outputPath(`${name}.png`);
  await page.screenshot({ path });
  await test.info().attach(name, { path, contentType: "image/png" });
  if (shotsPrefix !== undefined && existsSync("/tmp/shots"))
    await page.screenshot({ path: `/tmp/shots/${shotsPrefix}${name}.png` });
}
