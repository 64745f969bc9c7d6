import { describe, expect, it } from 'vitest';
import { addMoney, costKnownNote, walletCostKobo, walletCostText } from './bulkMoney';

// Expected texts written out by hand, as the window, the CLI and the workbook show them.
describe("a bulk job's money as people read it", () => {
  const allKnown = { count: 5000, faceKobo: 520_050, costKobo: 503_599, costKnown: 5000 };
  const someKnown = { count: 5000, faceKobo: 520_050, costKobo: 503_011, costKnown: 4990 };
  const noneKnown = { count: 3, faceKobo: 300_000, costKobo: 0, costKnown: 0 };

  it('says the wallet cost when it is known for every item', () => {
    expect(walletCostKobo(allKnown)).toBe(503_599);
    expect(walletCostText(allKnown)).toBe('₦5,035.99');
    expect(costKnownNote(allKnown)).toBeNull();
  });

  it('never shows an unknown cost as ₦0', () => {
    expect(walletCostKobo(noneKnown)).toBeNull();
    expect(walletCostText(noneKnown)).toBe('not known yet');
    expect(costKnownNote(noneKnown)).toBe('cost known for 0 of 3');
  });

  it('says for how many items a partly known cost stands', () => {
    expect(walletCostKobo(someKnown)).toBeNull();
    expect(walletCostText(someKnown)).toBe('₦5,030.11 for 4,990 of 5,000 (the rest not known yet)');
    expect(costKnownNote(someKnown)).toBe('cost known for 4,990 of 5,000');
  });

  it('adds groups of items field by field', () => {
    expect(addMoney()).toEqual({ count: 0, faceKobo: 0, costKobo: 0, costKnown: 0 });
    expect(addMoney({ count: 2, faceKobo: 100, costKobo: 97, costKnown: 1 }, { count: 3, faceKobo: 1_000, costKobo: 970, costKnown: 3 })).toEqual({
      count: 5,
      faceKobo: 1_100,
      costKobo: 1_067,
      costKnown: 4,
    });
  });
});
