/** The accessibility scan every page of the window is held to. */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * Every violation of the page as it stands, whatever its impact, one line each, to read in a failure:
 * WCAG 2.0–2.2 A/AA and axe's best practices. Every rule runs; only the violations are read, so axe
 * details no other kind of result.
 */
export async function violations(page: Page, within?: string): Promise<string[]> {
  const builder = new AxeBuilder({ page });
  // A dialog is scanned on its own (`within`): the page behind it is scanned before it opens.
  if (within) builder.include(within);
  const result = await builder
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .options({ resultTypes: ['violations'] })
    .analyze();
  return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary?.replace(/\s+/g, ' ') ?? ''}`));
}
