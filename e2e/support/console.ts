import { expect, type Locator, type Page } from '@playwright/test';

/** What the server answered to the call a confirmed dialog made. */
export interface Answer {
  status: number;
  code: number;
  message: string;
}

/**
 * Confirms an antd dialog with one click and waits for the application's state, not for an
 * animation: Playwright clicks only once the button stands still and receives the pointer, so the
 * click is never lost and never repeated (a repeated click could send a decision twice or hide a
 * dialog that stayed open). With `call` (a part of the path of the request the button sends), it
 * waits for that request's answer and returns it; either way it then waits until the dialog has
 * gone, which the console does on success and on a refusal alike.
 */
export async function confirmDialog(page: Page, dialogName: string, buttonName: string, call: string): Promise<Answer>;
export async function confirmDialog(page: Page, dialogName: string, buttonName: string): Promise<null>;
export async function confirmDialog(page: Page, dialogName: string, buttonName: string, call?: string): Promise<Answer | null> {
  const dialog = page.getByRole('dialog', { name: dialogName });
  await expect(dialog).toBeVisible();
  // The dialog opens with a motion (antd's zoom classes "…-appear"/"…-enter" on the dialog itself); a
  // click while it is still moving can be lost on a loaded machine (seen in CI: the dialog stayed
  // open, its button never spun). The click waits until the motion has ended.
  await expect(dialog).not.toHaveClass(/-(appear|enter)(-|\s|$)/);
  const button = dialog.getByRole('button', { name: buttonName, exact: true });
  const answered = call
    ? page.waitForResponse((response) => response.request().method() !== 'GET' && new URL(response.url()).pathname.includes(call))
    : null;
  await button.click();
  let answer: Answer | null = null;
  if (answered) {
    const response = await answered;
    const envelope = (await response.json()) as { code: number; message: string };
    answer = { status: response.status(), code: envelope.code, message: envelope.message };
  }
  await expect(dialog).toBeHidden();
  return answer;
}

/** Waits for the answer of the console call a click sends (method and path), and returns its envelope. */
export async function answerOf(page: Page, method: string, path: RegExp, click: () => Promise<void>) {
  const answered = page.waitForResponse(
    (response) => response.request().method() === method && path.test(new URL(response.url()).pathname),
  );
  await click();
  return (await (await answered).json()) as { code: number; message: string; data: unknown };
}

/**
 * The open drawer titled `title`, once it has stopped sliding in. Like a dialog's zoom, a click on a
 * drawer's button while its panel still moves can be lost on a loaded machine (seen in CI: "Approve"
 * clicked, no request sent, the drawer stayed open): antd keeps its "…-panel-motion-…" classes on the
 * panel until the motion has ended.
 */
export async function openedDrawer(page: Page, title: string): Promise<Locator> {
  const drawer = page.locator('.ant-drawer-open').filter({ has: page.locator('.ant-drawer-title', { hasText: title }) });
  await expect(drawer).toBeVisible();
  await expect(drawer.locator('[class*="-panel-motion-"]')).toHaveCount(0);
  return drawer;
}

/** Closes a drawer or dialog left covering the page (Escape), so the menu can be used. */
async function closeOverlays(page: Page): Promise<void> {
  const overlays = page.locator('.ant-drawer-open, .ant-modal-wrap:visible');
  if ((await overlays.count()) === 0) return;
  await page.keyboard.press('Escape');
  await expect(overlays).toHaveCount(0);
}

/**
 * Opens a console page from the left menu, opening its group first when it is closed, and waits
 * until the menu shows it as the current page. Each click happens once: Playwright waits for the
 * item to appear and stand still (the group opens with an animation) before clicking.
 */
export async function openConsolePage(page: Page, name: string, group?: RegExp): Promise<void> {
  await closeOverlays(page);
  // A top-level item's accessible name starts with its icon's label ("team Members").
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const item = page.getByRole('menuitem', { name: new RegExp(`(^|\\s)${escaped}$`) });
  if (group) {
    const groupItem = page.getByRole('menuitem', { name: group });
    if ((await groupItem.getAttribute('aria-expanded')) !== 'true') await groupItem.click();
    await expect(groupItem).toHaveAttribute('aria-expanded', 'true');
    // The menu scrolls with the page: after working down a long page its items are above the view.
    await item.scrollIntoViewIfNeeded();
    // The group opens with a height motion that clips its lower items: a click on an item still
    // clipped lands on nothing (seen under load). Click once the item is wholly shown.
    await expect(item).toBeInViewport({ ratio: 1 });
  }
  await item.click();
  await expect(item).toHaveClass(/ant-menu-item-selected/);
}

/**
 * Chooses an option of an antd select and waits until the select shows it and its list has closed.
 * The list opens with a slide motion; an option clicked while it still moves can miss (seen in CI:
 * the list stayed open over the dialog's button and every later click landed on an option). So the
 * click waits for the motion to end, and the list must close, or the test fails here and says so.
 */
export async function chooseOption(page: Page, select: Locator, optionText: string): Promise<void> {
  await select.click();
  const list = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
  await expect(list).toHaveCount(1);
  await expect(list).not.toHaveClass(/-(appear|enter)(-|\s|$)/);
  const escaped = optionText.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await list.locator('.ant-select-item-option', { hasText: new RegExp(`^\\s*${escaped}\\s*$`) }).click();
  await expect(list).toHaveCount(0);
  const field = select.locator('xpath=ancestor::div[contains(concat(" ", normalize-space(@class), " "), " ant-select ")][1]');
  await expect(field).toContainText(optionText);
}
