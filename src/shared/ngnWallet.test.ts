import { describe, expect, it } from 'vitest';
import { ngnWallet } from './ngnWallet';

const entry = (Currency: string, Balance: number) => ({ Currency, Balance, AccountNumber: `ACC-${Currency}` });

describe('ngnWallet', () => {
  it('is the NGN entry even when another currency is listed first', () => {
    expect(ngnWallet({ AccountName: 'Org', GlobalBalance: [entry('USD', 12), entry('NGN', 5000)] })?.Balance).toBe(5000);
  });

  it('reads the currency code whatever its case or spacing', () => {
    expect(ngnWallet({ AccountName: 'Org', GlobalBalance: [entry(' ngn ', 70)] })?.Balance).toBe(70);
  });

  it('is null when no NGN wallet is listed, never another currency taken as Naira', () => {
    expect(ngnWallet({ AccountName: 'Org', GlobalBalance: [entry('USD', 12)] })).toBeNull();
    expect(ngnWallet({ AccountName: 'Org', GlobalBalance: [] })).toBeNull();
  });
});
