/**
 * One-time codes (evidence) against the real sandbox, once for each form of the messaging answers:
 * the code is read from the sandbox outbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_FORMS, startTestApp, type TestApp } from '../../support/testApp';
import { refusal } from '../../support/refusal';

describe.each(ANSWER_FORMS)('one-time codes, answers in the $name form', (form) => {
  let t: TestApp;

  async function codeFor(reference: string): Promise<string> {
    const outbox = await t.sandboxControl.outbox();
    const entry = outbox.find((e) => e.reference === reference && e.channel === 'sms');
    if (!entry?.code) throw new Error(`no code in the outbox for ${reference}`);
    return entry.code;
  }

  /** The reference vendesk confirms with: the answer's, or (sparse) the envelope's request reference, said so. */
  function referenceOf(sent: { reference: string | null; notes: string[] }): string {
    if (form.sparse) expect(sent.notes.join(' ')).toMatch(/confirms it with the answer's request reference/);
    if (!sent.reference) throw new Error('no reference to confirm the code with');
    return sent.reference;
  }

  beforeAll(async () => {
    t = await startTestApp(form.options);
    await t.sandboxControl.setWallet(10_000);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('one-time codes', () => {
    it('sends a code, charges the wallet what it reports, and confirms it once', async () => {
      const before = (await t.call('account.balance', {})).balanceKobo;
      const sent = await t.call('messaging.otp.send', { receiverNumber: '+234 803 123 4567', senderId: 'VENDESK', numberOfDigits: 6, seconds: 300, emails: ['me@example.com'] });
      expect(sent).toMatchObject({ receiverNumber: '08031234567', numberOfDigits: 6, seconds: 300, costKobo: 500, costSource: form.sparse ? 'quoted' : 'service' });
      expect(Date.parse(sent.expiresAt) - Date.parse(sent.sentAt)).toBeGreaterThan(290_000);
      expect(before - (await t.call('account.balance', {})).balanceKobo).toBe(sent.costKobo);
      const reference = referenceOf(sent);
      const code = await codeFor(reference);
      expect(code).toMatch(/^\d{6}$/);

      const confirmed = await t.call('messaging.otp.confirm', { reference, code });
      expect(confirmed.reference).toBe(reference);

      const reused = await refusal(t.call('messaging.otp.confirm', { reference, code }));
      expect(reused.code).toBe('otp_used');
      expect(reused.hint).toMatch(/new code/);
    });

    it('refuses a wrong code, and the right one still works afterwards', async () => {
      const sent = await t.call('messaging.otp.send', { receiverNumber: '08031234567', senderId: 'VENDESK', numberOfDigits: 8, seconds: 60, emails: [] });
      const reference = referenceOf(sent);
      const code = await codeFor(reference);
      const wrong = code === '00000000' ? '11111111' : '00000000';
      const err = await refusal(t.call('messaging.otp.confirm', { reference, code: wrong }));
      expect(err.code).toBe('otp_wrong');
      expect((await t.call('messaging.otp.confirm', { reference, code })).reference).toBe(reference);
    });

    it('refuses an expired code', async () => {
      const sent = await t.call('messaging.otp.send', { receiverNumber: '08031234567', senderId: 'VENDESK', numberOfDigits: 6, seconds: 30, emails: [] });
      const reference = referenceOf(sent);
      const code = await codeFor(reference);
      await t.sandboxControl.advanceClock(31);
      const err = await refusal(t.call('messaging.otp.confirm', { reference, code }));
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
});
