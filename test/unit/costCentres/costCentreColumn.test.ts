/**
 * A bulk sheet's cost-centre column is found by the headings finance teams use, for every kind of
 * bulk sheet, and a cost centre typed anywhere is read the same way (hidden characters refused).
 */
import { expect, it } from 'vitest';
import { detectMapping } from '../../../src/main/imports/columnMapping';
import { readCostCentre } from '../../../src/shared/costCentre';
import { costCentreField } from '../../../src/shared/contract/purchases';

it.each(['Cost centre', 'Cost Center', 'DEPARTMENT', 'Dept.', 'Unit', 'cost_centre'])('finds the cost centre column headed %s', (heading) => {
  for (const kind of ['airtime', 'data', 'electricity', 'cable'] as const) {
    expect(detectMapping(['Name', 'Phone', 'Amount', heading], kind).costCentre).toBe(3);
  }
});

it('reads a cost centre: spaces tidied, empty is none, hidden characters and over-long names refused', () => {
  expect(readCostCentre('  Human   Resources ')).toEqual({ ok: true, value: 'Human Resources' });
  expect(readCostCentre('   ')).toEqual({ ok: true, value: null });
  expect(readCostCentre('Sales\u202eTFEL')).toMatchObject({ ok: false, reason: expect.stringContaining('hidden character') });
  expect(readCostCentre('x'.repeat(65))).toMatchObject({ ok: false, reason: expect.stringContaining('at most 64') });
  expect(costCentreField.safeParse('Sales\u001b[2J').success).toBe(false);
  expect(costCentreField.parse(' Ops ')).toBe('Ops');
});
