import { expect, type Page } from '@playwright/test';

/**
 * Confirms an antd dialog and waits until it has gone.
 *
 * antd dialogs open with an animation, and a click that lands while the button is still moving is
 * lost, so the click is repeated until the dialog closes. While the first click is being answered
 * the button shows a spinner (its accessible name becomes "loading …") and ignores clicks; once the
 * dialog has closed there is nothing left to click. A slow answer (a hot wallet signing, a loaded
 * machine) therefore only makes this wait longer, never fail.
 */
export async function confirmDialog(page: Page, dialogName: string, buttonName: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: dialogName });
  await expect(dialog).toBeVisible();
  const button = dialog.getByRole('button', { name: buttonName, exact: true });
  await expect(async () => {
    if ((await dialog.isVisible()) && (await button.isVisible())) {
      // A miss here (the button moved, the dialog closed meanwhile) is retried by the loop.
      await button.click({ timeout: 1_000 }).catch(() => undefined);
    }
    await expect(dialog).toBeHidden({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
}

/** Closes whatever drawer or dialog covers the page (Escape), so the menu can be used. */
async function closeOverlays(page: Page): Promise<void> {
  const overlays = page.locator('.ant-drawer-open, .ant-modal-wrap:visible');
  await expect(async () => {
    if ((await overlays.count()) > 0) await page.keyboard.press('Escape');
    await expect(overlays).toHaveCount(0, { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
}

/**
 * Opens a console page from the left menu, opening its group first when it has one, and waits
 * until the menu shows it as the current page. Clicks are repeated because the group opens with an
 * animation and a click on a still-moving item is lost.
 */
export async function openConsolePage(page: Page, name: string, group?: RegExp): Promise<void> {
  await closeOverlays(page);
  // A top-level item's accessible name starts with its icon's label ("team Members").
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const item = page.getByRole('menuitem', { name: new RegExp(`(^|\\s)${escaped}$`) });
  await expect(async () => {
    if (group && !(await item.isVisible())) {
      await page.getByRole('menuitem', { name: group }).click({ timeout: 1_000 });
    }
    await item.click({ timeout: 1_000 });
    await expect(item).toHaveClass(/ant-menu-item-selected/, { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
}
