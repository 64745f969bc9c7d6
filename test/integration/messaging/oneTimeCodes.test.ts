/** One-time codes (evidence) against the real sandbox: the code is read from the sandbox outbox. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../support/testApp';
import { refusal } from '../../support/refusal';

let t: TestApp;

async function codeFor(reference: string): Promise<string> {
  const outbox = (await t.control('outbox')) as { data: { reference: string; code?: string; channel: string }[] };
  const entry = outbox.data.find((e) => e.reference === reference && e.channel === 'sms');
  if (!entry?.code) throw new Error(`no code in the outbox for ${reference}`);
  return entry.code;
}

beforeAll(async () => {
  t = await startTestApp();
  await t.control('wallet', { balance: 10_000 });
});
afterAll(async () => {
  await t.close();
});

describe('one-time codes', () => {
  it('sends a code, charges the wallet what it reports, and confirms it once', async () => {
    const before = (await t.call('account.balance', {})).balanceKobo;
    const sent = await t.call('messaging.otp.send', { receiverNumber: '+234 803 123 4567', senderId: 'VENDESK', numberOfDigits: 6, seconds: 300, emails: ['me@example.com'] });
    expect(sent).toMatchObject({ receiverNumber: '08031234567', numberOfDigits: 6, seconds: 300, costKobo: 500 });
    expect(Date.parse(sent.expiresAt) - Date.parse(sent.sentAt)).toBeGreaterThan(290_000);
    expect(before - (await t.call('account.balance', {})).balanceKobo).toBe(sent.costKobo);
    const code = await codeFor(sent.reference);
    expect(code).toMatch(/^\d{6}$/);

    const confirmed = await t.call('messaging.otp.confirm', { reference: sent.reference, code });
    expect(confirmed.reference).toBe(sent.reference);

    const reused = await refusal(t.call('messaging.otp.confirm', { reference: sent.reference, code }));
    expect(reused.code).toBe('otp_used');
    expect(reused.hint).toMatch(/new code/);
  });

  it('refuses a wrong code, and the right one still works afterwards', async () => {
    const sent = await t.call('messaging.otp.send', { receiverNumber: '08031234567', senderId: 'VENDESK', numberOfDigits: 8, seconds: 60, emails: [] });
    const code = await codeFor(sent.reference);
    const wrong = code === '00000000' ? '11111111' : '00000000';
    const err = await refusal(t.call('messaging.otp.confirm', { reference: sent.reference, code: wrong }));
    expect(err.code).toBe('otp_wrong');
    expect((await t.call('messaging.otp.confirm', { reference: sent.reference, code })).reference).toBe(sent.reference);
  });

  it('refuses an expired code', async () => {
    const sent = await t.call('messaging.otp.send', { receiverNumber: '08031234567', senderId: 'VENDESK', numberOfDigits: 6, seconds: 30, emails: [] });
    const code = await codeFor(sent.reference);
    await t.control('clock', { advanceSeconds: 31 });
    const err = await refusal(t.call('messaging.otp.confirm', { reference: sent.reference, code }));
    expect(err.code).toBe('otp_expired');
    expect(err.hint).toBe('Send a new code.');
  });

  it('refuses a 5-digit code length, in vendesk and at the service, charging nothing', async () => {
    const before = (await t.call('account.balance', {})).balanceKobo;
    const err = await refusal(t.call('messaging.otp.send', { receiverNumber: '08031234567', senderId: 'VENDESK', numberOfDigits: 5, seconds: 60, emails: [] }));
    expect(err.code).toBe('invalid_input');
    expect(err.message).toMatch(/at least 6 digits/);
    const raw = await refusal(t.app.client().sendEvidence({ receiverNumber: '08031234567', senderId: 'VENDESK', numberOfDigits: 5, seconds: 60 }));
    expect(raw.message).toMatch(/6 to 100/);
    expect((await t.call('account.balance', {})).balanceKobo).toBe(before);
  });

  it('refuses an unapproved sender ID and an unknown reference', async () => {
    const err = await refusal(t.call('messaging.otp.send', { receiverNumber: '08031234567', senderId: 'PROMOTXT', numberOfDigits: 6, seconds: 60, emails: [] }));
    expect(err.code).toBe('sender_not_approved');
    const unknown = await refusal(t.call('messaging.otp.confirm', { reference: 'EVD-NOPE', code: '123456' }));
    expect(unknown.code).toBe('otp_unknown');
  });
});
