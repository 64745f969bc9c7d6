/**
 * A cost centre as vendesk keeps it: the department, unit or project a purchase's spend is charged
 * to (docs/cost-centres.md). Free text as the finance team names it, read the same way wherever it
 * is typed or imported: spaces at either end dropped and runs of spaces made one, at most
 * {@link COST_CENTRE_MAX} characters, no character a screen hides or obeys. Empty means none (the
 * recipients list's rule, else Unassigned).
 */
import { HIDDEN_CHARACTER, hiddenCharacterName } from './visibleText';

/** What spend with no cost centre of its own and no recipients-list rule is charged to. */
export const UNASSIGNED_COST_CENTRE = 'Unassigned';

export const COST_CENTRE_MAX = 64;

export type CostCentreText = { ok: true; value: string | null } | { ok: false; reason: string };

/** `text` as a cost centre (null: none given), or why it cannot be one. */
export function readCostCentre(text: string | null | undefined): CostCentreText {
  if (text === null || text === undefined) return { ok: true, value: null };
  const hidden = HIDDEN_CHARACTER.exec(text.replace(/[\t\n]/g, ' '));
  if (hidden) {
    return { ok: false, reason: `the cost centre holds a hidden character (${hiddenCharacterName(hidden[0])}) that can change what a screen shows; type it again` };
  }
  const value = text.replace(/\s+/g, ' ').trim();
  if (value === '') return { ok: true, value: null };
  if (value.length > COST_CENTRE_MAX) return { ok: false, reason: `the cost centre is ${value.length} characters long; use at most ${COST_CENTRE_MAX}` };
  return { ok: true, value };
}
