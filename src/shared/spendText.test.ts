import { describe, expect, it } from 'vitest';
import { chargeNote, expectedChargeText, faceAndCostText, purchasesText, refundedText } from './spendText';

// The words of spend on every screen, file and command, written out by hand.
describe('how spend is worded', () => {
  it('states the face value and the wallet cost together', () => {
    expect(faceAndCostText(520_050, 503_599)).toBe('Face value ₦5,200.50 · Wallet cost ₦5,035.99');
  });

  it('counts purchases in the singular and the plural', () => {
    expect(purchasesText(1)).toBe('1 purchase');
    expect(purchasesText(0)).toBe('0 purchases');
    expect(purchasesText(12_345)).toBe('12,345 purchases');
  });

  it('states refunds apart, and says nothing when there were none', () => {
    expect(refundedText({ count: 1, costKobo: 296_700 })).toBe('refunded ₦2,967.00 (1 purchase)');
    expect(refundedText({ count: 2, costKobo: 500 })).toBe('refunded ₦5.00 (2 purchases)');
    expect(refundedText({ count: 0, costKobo: 0 })).toBe('');
  });

  it('says what the wallet will be charged before a purchase', () => {
    expect(expectedChargeText({ faceKobo: 150_000, costKobo: 145_500, rateKnown: true })).toBe('about ₦1,455.00, the ₦1,500.00 face value less commission');
    expect(expectedChargeText({ faceKobo: 150_000, costKobo: 150_000, rateKnown: false })).toBe('the ₦1,500.00 face value less any commission (none known yet for it)');
    expect(chargeNote({ faceKobo: 150_000, costKobo: 145_500, rateKnown: true }, 'Then check the receipt.')).toBe(
      'The wallet is charged now: about ₦1,455.00, the ₦1,500.00 face value less commission (an estimate; the receipt shows the exact charge). Then check the receipt.',
    );
    expect(chargeNote(null, '')).toBe('The wallet is charged now: the amount less the commission (an estimate; the receipt shows the exact charge).');
  });
});
