/**
 * Keyboard drags with dnd-kit. Its keyboard sensor attaches its arrow-key listener in a
 * `setTimeout(…, 0)` queued when the drag starts, while the page may already show the drag
 * (aria-pressed) before that timer has run: an arrow pressed in between is lost, and on a loaded
 * machine the gap is wide enough to hit. A timer queued now runs after the sensor's (timers of
 * one delay run in the order they were set), so once it has run the arrows are heard.
 */
import { expect, type Locator, type Page } from "@playwright/test";

/** Pick up `handle` with Space and wait until the arrow keys move it. */
export async function pickUp(page: Page, handle: Locator): Promise<void> {
  await handle.focus();
  await page.keyboard.press("Space");
  await expect(handle).toHaveAttribute("aria-pressed", "true");
  await page.evaluate(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
}
