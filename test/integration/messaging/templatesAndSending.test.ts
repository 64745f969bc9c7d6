/**
 * Templates, sender IDs, single and bulk sends, status and history against the real sandbox over
 * HTTP, once for each form the service's messaging answers can take (the sandbox's standard, alt
 * and sparse shapes, and a reshaping proxy in front of it). Each rule is checked twice where it
 * matters: the service itself refuses (raw client) and vendesk refuses before anything leaves,
 * with a message that says what to do.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageView } from '../../../src/shared/contract/messaging';
import { messageCost } from '../../../src/shared/messagingCost';
import { ANSWER_FORMS, startTestApp, type TestApp } from '../../support/testApp';
import { refusal } from '../../support/refusal';
import { sandboxWalletKobo } from '../../support/sandboxRecords';

interface OutboxEntry {
  channel: string;
  to: string;
  body: string;
  reference: string;
}

describe.each(ANSWER_FORMS)('messaging answers in the $name form', (form) => {
  let t: TestApp;

  async function balanceKobo(): Promise<number> {
    return (await t.call('account.balance', {})).balanceKobo;
  }

  async function outbox(): Promise<OutboxEntry[]> {
    return t.sandboxControl.outbox();
  }

  /**
   * The outbox entries of a message vendesk reports sent: by its reference, or — where the form's
   * answer gives none — by the reference the service's own history gives the message with that text.
   */
  async function deliveriesOf(sent: MessageView): Promise<OutboxEntry[]> {
    let reference = sent.reference;
    if (form.sparse) {
      expect(sent.reference).toBeNull();
      expect(sent.notes.join(' ')).toMatch(/did not give this message's reference/);
      const found = await t.call('messaging.history', { search: sent.body });
      expect(found.items).toHaveLength(1);
      reference = found.items[0].reference;
    }
    return (await outbox()).filter((e) => e.reference === reference);
  }

  beforeAll(async () => {
    t = await startTestApp(form.options);
    await t.sandboxControl.setWallet(100_000);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('sender IDs', () => {
    it('lists VENDESK as approved and PROMOTXT as waiting for approval', async () => {
      const ids = await t.call('messaging.senderIds', {});
      expect(ids.find((s) => s.senderId === 'VENDESK')).toMatchObject({ state: 'APPROVED', approved: true });
      expect(ids.find((s) => s.senderId === 'PROMOTXT')).toMatchObject({ state: 'PENDING', approved: false });
    });

    it('refuses a send with an unapproved sender ID, and the service refuses it too', async () => {
      const before = await balanceKobo();
      const quote = await t.call('messaging.quote', { target: { kind: 'number', to: '08031234567' }, content: { kind: 'text', text: 'Hello' }, emails: [] });
      const err = await refusal(
        t.call('messaging.send', {
          target: { kind: 'number', to: '08031234567' },
          content: { kind: 'text', text: 'Hello' },
          emails: [],
          senderId: 'PROMOTXT',
          confirmedTotalKobo: quote.totalKobo,
        }),
      );
      expect(err.code).toBe('sender_not_approved');
      expect(err.message).toMatch(/PROMOTXT.*not approved/);
      const raw = await refusal(t.app.client().sendMessage({ receiverNumber: '08031234567', senderId: 'PROMOTXT', messageBody: 'Hello' }));
      expect(raw.message).toMatch(/not approved/);
      expect(await balanceKobo()).toBe(before);
    });
  });

  describe('templates', () => {
    it('derives the indexes from the body, whatever the order of the placeholders', async () => {
      const tpl = await t.call('messaging.templates.create', {
        name: 'Salary notice',
        body: 'Dear {{2}}, your salary of {{1}} was paid on {{3}}.',
        useCases: ['payroll', 'alerts'],
      });
      expect(tpl.indexes).toEqual(['1', '2', '3']);
      expect(tpl.slug).toBe('salary-notice');
      expect(tpl.useCases).toEqual(['payroll', 'alerts']);
      expect(tpl.state).toBe('PENDING');
    });

    it('needs no use case, as the service needs none: created without one, listed with none', async () => {
      // The service itself takes a template whose useCase is empty.
      const raw = await t.app.client().createTemplate({ name: 'Bare raw', slug: 'bare-raw', body: 'Office closes at {{1}}', indexes: ['1'], useCase: '' });
      expect(raw).toBeDefined();
      const tpl = await t.call('messaging.templates.create', { name: 'Closing time', body: 'Office closes at {{1}} today.' });
      expect(tpl.useCases).toEqual([]);
      const listed = (await t.call('messaging.templates.list', {})).find((x) => x.name === 'Closing time');
      expect(listed).toMatchObject({ useCases: [], indexes: ['1'] });
    });

    it('refuses a template with a gap in its placeholders, in vendesk and at the service', async () => {
      const err = await refusal(t.call('messaging.templates.create', { name: 'Gappy', body: 'Hi {{1}}, see {{3}}', useCases: ['alerts'] }));
      expect(err.code).toBe('invalid_input');
      expect(err.message).toMatch(/\{\{2\}\} is missing/);
      const raw = await refusal(t.app.client().createTemplate({ name: 'Gappy', slug: 'gappy', body: 'Hi {{1}}, see {{3}}', indexes: ['1', '3'], useCase: 'alerts' }));
      expect(raw.message).toMatch(/sequential|skipped|missing/);
      expect((await t.call('messaging.templates.list', {})).some((x) => x.name === 'Gappy')).toBe(false);
    });

    it('a template is approved 60 s after creation; until then it cannot be used; a "reject…" template is rejected', async () => {
      const tpl = await t.call('messaging.templates.create', { name: 'Payday', body: 'Hello {{1}}, payday is {{2}}.', useCases: ['payroll'] });
      const rejected = await t.call('messaging.templates.create', { name: 'reject me', body: 'Win {{1}} now', useCases: ['promo'] });
      const content = { kind: 'template' as const, templateId: tpl.id, values: ['Ada', 'Friday'] };
      const quote = await t.call('messaging.quote', { target: { kind: 'number', to: '08031234567' }, content, emails: [] });
      expect(quote.body).toBe('Hello Ada, payday is Friday.');
      const err = await refusal(
        t.call('messaging.send', { target: { kind: 'number', to: '08031234567' }, content, emails: [], senderId: 'VENDESK', confirmedTotalKobo: quote.totalKobo }),
      );
      expect(err.code).toBe('template_not_approved');
      const raw = await refusal(
        t.app.client().sendMessage({ receiverNumber: '08031234567', senderId: 'VENDESK', templateInUse: true, template: { templateId: tpl.id, indexes: ['Ada', 'Friday'] } }),
      );
      expect(raw.message).toMatch(/not approved/);

      await t.sandboxControl.advanceClock(61);
      const list = await t.call('messaging.templates.list', {});
      expect(list.find((x) => x.id === tpl.id)).toMatchObject({ state: 'APPROVED', approved: true, approval: { NG: 'APPROVED' } });
      expect(list.find((x) => x.id === rejected.id)).toMatchObject({ state: 'REJECTED', approved: false });

      const sent = await t.call('messaging.send', {
        target: { kind: 'number', to: '2348031234567' },
        content,
        emails: [],
        senderId: 'VENDESK',
        confirmedTotalKobo: quote.totalKobo,
      });
      expect(sent.body).toBe('Hello Ada, payday is Friday.');
      expect(sent.templateId).toBe(tpl.id);
      const delivered = await deliveriesOf(sent);
      expect(delivered).toHaveLength(1);
      expect(delivered[0]).toMatchObject({ to: '08031234567', body: 'Hello Ada, payday is Friday.' });

      const wrongCount = await refusal(
        t.call('messaging.send', {
          target: { kind: 'number', to: '08031234567' },
          content: { ...content, values: ['Ada'] },
          emails: [],
          senderId: 'VENDESK',
          confirmedTotalKobo: quote.totalKobo,
        }),
      );
      expect(wrongCount.code).toBe('template_values');
    });
  });

  describe('sending', () => {
    it('charges the wallet exactly the cost shown before sending, email copies included', async () => {
      const text = 'x'.repeat(161); // two pages
      const emails = ['finance@example.com', 'audit@example.com'];
      const quote = await t.call('messaging.quote', { target: { kind: 'number', to: '08061234567' }, content: { kind: 'text', text }, emails });
      expect(quote).toMatchObject({ recipients: 1, pages: 2, emails: 2, smsKobo: 800, emailKobo: 200, totalKobo: 1000 });
      expect(quote.totalKobo).toBe(messageCost({ text, recipients: 1, emails: 2 }).totalKobo);
      const before = await balanceKobo();
      const sent = await t.call('messaging.send', {
        target: { kind: 'number', to: '08061234567' },
        content: { kind: 'text', text },
        emails,
        subject: 'Copy',
        senderId: 'VENDESK',
        confirmedTotalKobo: quote.totalKobo,
      });
      expect(sent).toMatchObject({ totalCostKobo: 1000, emailCostKobo: 200, smsCostKobo: 800, emails, costSource: form.sparse ? 'quoted' : 'service' });
      expect(before - (await balanceKobo())).toBe(quote.totalKobo);
      const delivered = await deliveriesOf(sent);
      expect(
        delivered
          .filter((e) => e.channel === 'email')
          .map((e) => e.to)
          .sort(),
      ).toEqual([...emails].sort());
      expect(delivered.filter((e) => e.channel === 'sms').map((e) => e.to)).toEqual(['08061234567']);
    });

    it('refuses an invalid email address before anything is sent', async () => {
      const err = await refusal(t.call('messaging.quote', { target: { kind: 'number', to: '08061234567' }, content: { kind: 'text', text: 'Hi' }, emails: ['not-an-address'] }));
      expect(err.code).toBe('invalid_input');
      expect(err.message).toMatch(/not-an-address/);
    });

    it('refuses to send when the cost differs from the one confirmed', async () => {
      const before = await balanceKobo();
      const err = await refusal(
        t.call('messaging.send', { target: { kind: 'number', to: '08061234567' }, content: { kind: 'text', text: 'Hi' }, emails: [], senderId: 'VENDESK', confirmedTotalKobo: 1 }),
      );
      expect(err.code).toBe('cost_changed');
      expect(err.message).toMatch(/₦4\.00/);
      expect(await balanceKobo()).toBe(before);
    });

    it('refuses a number that is not Nigerian mobile, naming it', async () => {
      const err = await refusal(t.call('messaging.quote', { target: { kind: 'number', to: '12345' }, content: { kind: 'text', text: 'Hi' }, emails: [] }));
      expect(err.message).toMatch(/12345 is not a Nigerian mobile number/);
    });

    it('sends in bulk to a phonebook, then shows its status and finds it in the history', async () => {
      const pb = await t.call('messaging.phonebooks.create', { name: 'Drivers', description: 'Fleet' });
      await t.app.client().createContacts(
        [
          { name: 'A', phoneNumber: '08031110001' },
          { name: 'B', phoneNumber: '08031110002' },
          { name: 'C', phoneNumber: '08031110003' },
        ],
        pb.id,
      );
      const input = { target: { kind: 'phonebook' as const, phoneBookId: pb.id }, content: { kind: 'text' as const, text: 'Fuel allowance paid' }, emails: ['ops@example.com'] };
      const quote = await t.call('messaging.quote', input);
      expect(quote).toMatchObject({ recipients: 3, pages: 1, totalKobo: 3 * 400 + 100, recipientsLabel: 'Drivers (3 contacts)' });
      const before = await balanceKobo();
      const sent = await t.call('messaging.send', { ...input, senderId: 'VENDESK', confirmedTotalKobo: quote.totalKobo });
      expect(sent).toMatchObject({ isBulk: true, phoneBookId: pb.id, recipientCount: 3, totalCostKobo: 1300 });
      expect(before - (await balanceKobo())).toBe(1300);
      const delivered = await deliveriesOf(sent);
      expect(delivered.filter((e) => e.channel === 'sms').map((e) => e.to)).toEqual(['08031110001', '08031110002', '08031110003']);
      const reference = delivered[0].reference;

      expect((await t.call('messaging.status', { reference })).status).toBe('SENT');
      await t.sandboxControl.advanceClock(6);
      expect((await t.call('messaging.status', { reference })).status).toBe('DELIVERED');

      const history = await t.call('messaging.history', { search: 'Fuel allowance' });
      expect(history.items.map((m) => m.reference)).toEqual([reference]);
      const all = await t.call('messaging.history', { page: 1, perPage: 2 });
      expect(all.items).toHaveLength(2);
      expect(all.hasMore).toBe(true);
      expect(all.totalRecords).toBe(3);
      expect(all.totalPages).toBe(2);
    });

    it('a send answered with success in this form is reported sent, sent once and charged once, recorded with what was charged', async () => {
      const input = { target: { kind: 'number' as const, to: '08091234567' }, content: { kind: 'text' as const, text: 'Once only, please' }, emails: [] };
      const quote = await t.call('messaging.quote', input);
      const walletBefore = await sandboxWalletKobo(t);
      const boxBefore = (await outbox()).length;
      const sent = await t.call('messaging.send', { ...input, senderId: 'VENDESK', confirmedTotalKobo: quote.totalKobo });
      expect(sent.status).toBe('SENT');
      expect(walletBefore - (await sandboxWalletKobo(t))).toBe(quote.totalKobo);
      const box = await outbox();
      expect(box.length - boxBefore).toBe(1);
      expect(box.filter((e) => e.body === 'Once only, please')).toHaveLength(1);
      const row = t.app.db.prepare("SELECT state, charged_kobo AS charged, charge_source AS source FROM messaging_sends WHERE body = 'Once only, please'").all();
      expect(row).toEqual([{ state: 'sent', charged: quote.totalKobo, source: form.sparse ? 'quoted' : 'service' }]);
    });

    it('explains an unknown message reference and an empty phonebook', async () => {
      const err = await refusal(t.call('messaging.status', { reference: 'MSG-NOPE' }));
      expect(err.code).toBe('message_not_found');
      const empty = await t.call('messaging.phonebooks.create', { name: 'Empty', description: '' });
      const e2 = await refusal(t.call('messaging.quote', { target: { kind: 'phonebook', phoneBookId: empty.id }, content: { kind: 'text', text: 'Hi' }, emails: [] }));
      expect(e2.code).toBe('phonebook_empty');
      expect(e2.hint).toMatch(/Import contacts/);
    });
  });
});
