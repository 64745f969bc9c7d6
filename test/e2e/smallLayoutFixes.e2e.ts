/**
 * Three things a user noticed, at both window sizes: the Transactions search placeholder is not
 * cut, the header says the service is answering as a state (not "service answers", the name of a
 * Settings page), and on Reconcile the file field's label lines up with From and To.
 */
import { expect, saveScreen, SCREEN_SIZES, test } from './support/fixtures';

for (const size of SCREEN_SIZES) {
  test(`at ${size.width} px the search placeholder fits, the header reads as a state, and the Reconcile labels line up`, async ({ page, vendesk }) => {
    await page.setViewportSize(size);
    await page.goto(`${vendesk.shell!.origin}/#/transactions`);
    const search = page.getByTestId('filter-search');
    await expect(search).toBeVisible();
    // The placeholder's text is as wide as the box can show, or narrower.
    const fit = await search.evaluate((input: HTMLInputElement) => {
      const style = getComputedStyle(input);
      const ctx = document.createElement('canvas').getContext('2d')!;
      ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return { text: input.placeholder, width: ctx.measureText(input.placeholder).width, room };
    });
    expect(fit.width, `"${fit.text}" is ${fit.width.toFixed(0)} px in ${fit.room.toFixed(0)} px`).toBeLessThanOrEqual(fit.room);

    await expect(page.getByTestId('connection-status')).toHaveText(/· service answering$/);
    await expect(page.getByTestId('connection-status')).not.toContainText('service answers');
    await saveScreen(page, `fixes-transactions-${size.width}.png`);

    await page.goto(`${vendesk.shell!.origin}/#/reconcile`);
    // Every field whose box is on the file field's row has its label on the file label's line
    // (a narrow window puts "To" on the next row; From is always beside the file).
    const field = async (text: string) => {
      const label = page.locator('label', { hasText: text }).first();
      const id = await label.getAttribute('for');
      return { label: (await label.boundingBox())!.y, box: (await page.locator(`[id="${id}"]`).boundingBox())!.y };
    };
    const file = await field('Vendor export');
    const from = await field('From');
    const to = await field('To (inclusive)');
    expect(Math.abs(from.box - file.box)).toBeLessThanOrEqual(1);
    for (const other of [from, to].filter((f) => Math.abs(f.box - file.box) <= 1)) expect(Math.abs(other.label - file.label)).toBeLessThanOrEqual(1);
    await saveScreen(page, `fixes-reconcile-${size.width}.png`);
  });
}
