import { expect, type Locator, type Page } from "@playwright/test";

/**
 * Picks a value in one of the app's pickers (components/ui/select: no native <select>): opens the
 * trigger, then clicks the option in the listbox named `listbox` (the field's label).
 */
export async function choose(page: Page, trigger: Locator, listbox: string, option: string | RegExp): Promise<void> {
  await trigger.click();
  const list = page.getByRole("listbox", { name: listbox });
  await list.getByRole("option", { name: option, exact: typeof option === "string" }).click();
  await expect(list).toBeHidden();
}
