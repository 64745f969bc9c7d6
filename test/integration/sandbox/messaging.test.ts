import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ContactsCreated,
  EvidenceConfirmed,
  EvidenceSent,
  MessageRecord,
  OutboxEntry,
  PageObject,
  PhonebookRecord,
  PhonebookWithContacts,
  SenderIdRecord,
  TemplateRecord,
} from '../../../src/shared/wire';
import { naira, start, type Org, type Started } from './sandboxHarness';

let s: Started;
beforeAll(async () => {
  s = await start();
});
afterAll(() => s.sandbox.close());

const template = (name: string, body = 'Hello {{1}}, your balance is {{2}}', indexes = ['1', '2']) => ({
  body, indexes, name, slug: name.toLowerCase().replace(/\s+/g, '-'), useCase: 'notification,billing',
});

async function outbox(org: Org): Promise<(OutboxEntry & { subject?: string })[]> {
  return (await org.get<(OutboxEntry & { subject?: string })[]>('/__sandbox/outbox')).body.data;
}

describe('sender IDs', () => {
  it('starts every organisation with VENDESK approved and PROMOTXT pending for NG', async () => {
    const r = await s.org().get<SenderIdRecord[]>('/getSenderIds');
    expect(r.status).toBe(200);
    expect(r.body.gatewayStatus).toBe('00');
    const byId = Object.fromEntries(r.body.data.map((x) => [x.senderId, x.approval]));
    expect(byId).toEqual({ VENDESK: { NG: 'APPROVED' }, PROMOTXT: { NG: 'PENDING' } });
    expect(r.body.data[0].createdAt).toMatch(/Z$/);
  });

  it('refuses to send with an unapproved or unknown sender ID, charging nothing', async () => {
    const org = s.org();
    const pending = await org.post('/sendMessage', { senderId: 'PROMOTXT', receiverNumber: '08031234567', messageBody: 'hi' });
    expect(pending.status).toBe(400);
    expect(pending.body.gatewayStatus).toBe('88');
    expect(pending.body.data).toMatch(/PROMOTXT is not approved for NG/);
    const unknown = await org.post('/sendMessage', { senderId: 'NOPE', receiverNumber: '08031234567', messageBody: 'hi' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.data).toMatch(/not registered/);
    expect(await org.balance()).toBe(1_000_000);
    expect(await outbox(org)).toEqual([]);
  });
});

describe('templates', () => {
  it('creates a template PENDING, APPROVED 60 s later on the sandbox clock', async () => {
    const org = s.org();
    const r = await org.post<TemplateRecord>('/createTemplates', template('Balance alert'));
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ name: 'Balance alert', slug: 'balance-alert', indexes: ['1', '2'], useCase: 'notification,billing', approval: { NG: 'PENDING' } });
    expect(r.body.data.id).not.toBe('');
    await org.advance(59);
    expect((await org.get<TemplateRecord[]>('/getTemplates')).body.data[0].approval.NG).toBe('PENDING');
    await org.advance(1);
    const list = await org.get<TemplateRecord[]>('/getTemplates');
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0].approval.NG).toBe('APPROVED');
  });

  it('rejects a template whose name starts with "reject"', async () => {
    const org = s.org();
    await org.post('/createTemplates', template('rejected promo'));
    await org.advance(60);
    const [t] = (await org.get<TemplateRecord[]>('/getTemplates')).body.data;
    expect(t.approval.NG).toBe('REJECTED');
    const send = await org.post('/sendMessage', { senderId: 'VENDESK', receiverNumber: '08031234567', templateInUse: true, template: { templateId: t.id, indexes: ['a', 'b'] } });
    expect(send.status).toBe(400);
    expect(send.body.data).toMatch(/not approved.*REJECTED/);
  });

  it('accepts placeholders in any order, and repeated', async () => {
    const org = s.org();
    expect((await org.post('/createTemplates', template('Any order', '{{2}} owes {{1}}; pay {{1}} now', ['2', '1']))).status).toBe(200);
    expect((await org.post('/createTemplates', template('No placeholders', 'Office closed today', []))).status).toBe(200);
  });

  it('refuses skipped or non-numeric placeholders and indexes that do not match', async () => {
    const org = s.org();
    const skipped = await org.post('/createTemplates', template('Skip', 'Hi {{1}} and {{3}}', ['1', '3']));
    expect(skipped.status).toBe(400);
    expect(skipped.body.data).toMatch(/sequential.*missing \{\{2\}\}/);
    const zero = await org.post('/createTemplates', template('Zero', 'Hi {{0}}', ['0']));
    expect(zero.status).toBe(400);
    const word = await org.post('/createTemplates', template('Word', 'Hi {{name}}', ['1']));
    expect(word.status).toBe(400);
    const mismatch = await org.post('/createTemplates', template('Mismatch', 'Hi {{1}} {{2}}', ['1']));
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.data).toMatch(/indexes must list exactly/);
    const extra = await org.post('/createTemplates', template('Extra', 'Hi {{1}}', ['1', '2']));
    expect(extra.status).toBe(400);
    const missingName = await org.post('/createTemplates', { body: 'Hi {{1}}', indexes: ['1'], name: '', slug: '', useCase: '' });
    expect(missingName.status).toBe(400);
    expect((await org.get<TemplateRecord[]>('/getTemplates')).body.data).toEqual([]);
  });
});

describe('sendMessage', () => {
  it('sends one SMS for 4 Naira per 160-character page, with delivery in the outbox and status by reference', async () => {
    const org = s.org();
    const r = await org.post<MessageRecord>('/sendMessage', { senderId: 'VENDESK', receiverNumber: '+2348031234567', messageBody: 'Your payslip is ready', isBulk: false });
    expect(r.status).toBe(200);
    expect(r.body.gatewayStatus).toBe('00');
    expect(r.body.data).toMatchObject({ senderId: 'VENDESK', body: 'Your payslip is ready', isBulk: false, recipients: ['08031234567'], recipientCount: 1, pages: 1, smsCost: 4, emailCost: 0, totalCost: 4, status: 'SENT' });
    expect(await org.balance()).toBe(999_996);
    const box = await outbox(org);
    expect(box).toEqual([{ channel: 'sms', to: '08031234567', body: 'Your payslip is ready', reference: r.body.data.reference, createdAt: expect.stringMatching(/Z$/) }]);
    const status = await org.get<MessageRecord>(`/MSQ/${r.body.data.reference}`);
    expect(status.status).toBe(200);
    expect(status.body.data.status).toBe('SENT');
    await org.advance(5);
    expect((await org.get<MessageRecord>(`/MSQ/${r.body.data.reference}`)).body.data.status).toBe('DELIVERED');
    expect((await org.get('/MSQ/UNKNOWN')).status).toBe(404);
  });

  it('charges per page: 161 characters are two pages', async () => {
    const org = s.org();
    const r = await org.post<MessageRecord>('/sendMessage', { senderId: 'VENDESK', receiverNumber: '08031234567', messageBody: 'x'.repeat(161) });
    expect(r.body.data.pages).toBe(2);
    expect(r.body.data.smsCost).toBe(8);
    expect(await org.balance()).toBe(999_992);
  });

  it('copies to email for 1 Naira per address, with the subject', async () => {
    const org = s.org();
    const r = await org.post<MessageRecord>('/sendMessage', {
      senderId: 'VENDESK', receiverNumber: '08031234567', messageBody: 'Salary paid', sendtoEmail: true, emails: ['ada@example.com', 'femi@example.ng'], subject: 'Payroll',
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ emails: ['ada@example.com', 'femi@example.ng'], smsCost: 4, emailCost: 2, totalCost: 6 });
    expect(await org.balance()).toBe(999_994);
    const emails = (await outbox(org)).filter((e) => e.channel === 'email');
    expect(emails.map((e) => e.to)).toEqual(['ada@example.com', 'femi@example.ng']);
    expect(emails[0].subject).toBe('Payroll');
    const bad = await org.post('/sendMessage', { senderId: 'VENDESK', receiverNumber: '08031234567', messageBody: 'x', sendtoEmail: true, emails: ['not-an-email'] });
    expect(bad.status).toBe(400);
    const none = await org.post('/sendMessage', { senderId: 'VENDESK', receiverNumber: '08031234567', messageBody: 'x', sendtoEmail: true, emails: [] });
    expect(none.status).toBe(400);
  });

  it('substitutes template indexes in placeholder order, and refuses a pending template or a wrong count', async () => {
    const org = s.org();
    const pendingT = (await org.post<TemplateRecord>('/createTemplates', template('Fresh'))).body.data;
    const refused = await org.post('/sendMessage', { senderId: 'VENDESK', receiverNumber: '08031234567', templateInUse: true, template: { templateId: pendingT.id, indexes: ['Ada', 'NGN 5,000'] } });
    expect(refused.status).toBe(400);
    expect(refused.body.data).toMatch(/not approved.*PENDING/);
    await org.advance(60);
    const r = await org.post<MessageRecord>('/sendMessage', { senderId: 'VENDESK', receiverNumber: '08031234567', messageBody: 'ignored', templateInUse: true, template: { templateId: pendingT.id, indexes: ['Ada', 'NGN 5,000'] } });
    expect(r.status).toBe(200);
    expect(r.body.data.body).toBe('Hello Ada, your balance is NGN 5,000');
    expect(r.body.data.templateId).toBe(pendingT.id);
    const wrong = await org.post('/sendMessage', { senderId: 'VENDESK', receiverNumber: '08031234567', templateInUse: true, template: { templateId: pendingT.id, indexes: ['Ada'] } });
    expect(wrong.status).toBe(400);
    const unknown = await org.post('/sendMessage', { senderId: 'VENDESK', receiverNumber: '08031234567', templateInUse: true, template: { templateId: 'TPL-NOPE', indexes: [] } });
    expect(unknown.status).toBe(404);
  });

  it('refuses an empty body, a bad number, a missing receiver and insufficient balance', async () => {
    const org = s.org();
    expect((await org.post('/sendMessage', { senderId: 'VENDESK', receiverNumber: '08031234567', messageBody: '' })).status).toBe(400);
    expect((await org.post('/sendMessage', { senderId: 'VENDESK', receiverNumber: '+447911123456', messageBody: 'hi' })).status).toBe(400);
    expect((await org.post('/sendMessage', { senderId: 'VENDESK', messageBody: 'hi' })).status).toBe(400);
    expect((await org.call('POST', '/sendMessage')).status).toBe(400);
    await org.setWallet(3);
    const poor = await org.post('/sendMessage', { senderId: 'VENDESK', receiverNumber: '08031234567', messageBody: 'hi' });
    expect(poor.status).toBe(400);
    expect(poor.body.data).toMatch(/insufficient balance/);
    expect(await org.balance()).toBe(3);
    expect(await outbox(org)).toEqual([]);
  });
});

describe('unconfigured organisations', () => {
  it('cannot send messages or codes (422) but can read and manage their lists', async () => {
    const org = s.org('unconfigured');
    const r = await org.post('/sendMessage', { senderId: 'VENDESK', receiverNumber: '08031234567', messageBody: 'hi' });
    expect(r.status).toBe(422);
    expect((await org.post('/sendEvidence', { receiverNumber: '08031234567', senderId: 'VENDESK', numberOfDigits: 6, seconds: 60 })).status).toBe(422);
    expect((await org.get('/getSenderIds')).status).toBe(200);
    expect((await org.post('/craetePhonebook', { name: 'ok', description: '' })).status).toBe(200);
  });
});

describe('phonebooks, contacts and bulk sends', () => {
  it('creates phonebooks (/craetePhonebook) and lists them', async () => {
    const org = s.org();
    const a = await org.post<PhonebookRecord>('/craetePhonebook', { name: 'Field staff', description: 'Lagos and Abuja' });
    expect(a.status).toBe(200);
    expect(a.body.data).toMatchObject({ name: 'Field staff', description: 'Lagos and Abuja', contactCount: 0 });
    expect(Number.isInteger(a.body.data.id)).toBe(true);
    await org.post('/craetePhonebook', { name: 'Vendors', description: '' });
    const list = await org.get<PhonebookRecord[]>('/getPhonebook');
    expect(list.body.data.map((p) => p.name)).toEqual(['Field staff', 'Vendors']);
    expect((await org.post('/craetePhonebook', { description: 'no name' })).status).toBe(400);
  });

  it('adds contacts to the most recent phonebook, or to ?phoneBookId=N, skipping numbers already there', async () => {
    const org = s.org();
    expect((await org.post('/createContact', [{ name: 'Ada', phoneNumber: '08031234567' }])).status).toBe(400); // no phonebook yet
    const first = (await org.post<PhonebookRecord>('/craetePhonebook', { name: 'First', description: '' })).body.data;
    const second = (await org.post<PhonebookRecord>('/craetePhonebook', { name: 'Second', description: '' })).body.data;
    const r = await org.post<ContactsCreated>('/createContact', [
      { name: 'Ada Okafor', phoneNumber: '08031234567' },
      { name: 'Femi Bello', phoneNumber: '2348021234567' },
      { name: 'Ada again', phoneNumber: '+2348031234567' },
    ]);
    expect(r.status).toBe(200);
    expect(r.body.data.phoneBookId).toBe(second.id);
    expect(r.body.data.added).toBe(2);
    expect(r.body.data.skipped).toBe(1);
    expect(r.body.data.contacts.map((c) => c.phoneNumber)).toEqual(['08031234567', '08021234567']);
    const again = await org.post<ContactsCreated>('/createContact', [{ name: 'Ada', phoneNumber: '8031234567' }]);
    expect(again.body.data).toMatchObject({ added: 0, skipped: 1 });
    const toFirst = await org.post<ContactsCreated>(`/createContact?phoneBookId=${first.id}`, [{ name: 'Ada', phoneNumber: '08031234567' }]);
    expect(toFirst.body.data).toMatchObject({ phoneBookId: first.id, added: 1, skipped: 0 });
    const one = await org.get<PhonebookWithContacts>(`/getPhonebook?phoneBookId=${second.id}`);
    expect(one.body.data.contactCount).toBe(2);
    expect(one.body.data.contacts.map((c) => c.name)).toEqual(['Ada Okafor', 'Femi Bello']);
    expect((await org.get(`/getPhonebook?phoneBookId=99999`)).status).toBe(404);
    expect((await org.post(`/createContact?phoneBookId=99999`, [{ name: 'x', phoneNumber: '08031234567' }])).status).toBe(404);
  });

  it('refuses a contact list with an invalid number and adds none of it', async () => {
    const org = s.org();
    await org.post('/craetePhonebook', { name: 'Book', description: '' });
    const r = await org.post('/createContact', [{ name: 'Ok', phoneNumber: '08031234567' }, { name: 'Bad', phoneNumber: '0703' }]);
    expect(r.status).toBe(400);
    expect(r.body.data).toMatch(/contact 2/);
    expect((await org.get<PhonebookRecord[]>('/getPhonebook')).body.data[0].contactCount).toBe(0);
    expect((await org.post('/createContact', [])).status).toBe(400);
  });

  it('sends in bulk to a phonebook: one SMS per contact, charged per recipient; receiverNumber ignored', async () => {
    const org = s.org();
    const book = (await org.post<PhonebookRecord>('/craetePhonebook', { name: 'Staff', description: '' })).body.data;
    await org.post('/createContact', [
      { name: 'A', phoneNumber: '08031110001' }, { name: 'B', phoneNumber: '08031110002' }, { name: 'C', phoneNumber: '08031110003' },
    ]);
    const r = await org.post<MessageRecord>('/sendMessage', { senderId: 'VENDESK', receiverNumber: '08099999999', messageBody: 'Meeting at 9', isBulk: true, phoneBookId: book.id, sendtoEmail: true, emails: ['hr@example.com'] });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ isBulk: true, phoneBookId: book.id, recipientCount: 3, smsCost: 12, emailCost: 1, totalCost: 13 });
    expect(await org.balance()).toBe(naira(1_000_000, -13));
    const box = await outbox(org);
    expect(box.filter((e) => e.channel === 'sms').map((e) => e.to)).toEqual(['08031110001', '08031110002', '08031110003']);
    expect((await org.post('/sendMessage', { senderId: 'VENDESK', messageBody: 'x', isBulk: true })).status).toBe(400);
    expect((await org.post('/sendMessage', { senderId: 'VENDESK', messageBody: 'x', isBulk: true, phoneBookId: 424242 })).status).toBe(404);
    const empty = (await org.post<PhonebookRecord>('/craetePhonebook', { name: 'Empty', description: '' })).body.data;
    expect((await org.post('/sendMessage', { senderId: 'VENDESK', messageBody: 'x', isBulk: true, phoneBookId: empty.id })).status).toBe(400);
  });

  it('does not share phonebooks between organisations', async () => {
    const a = s.org();
    const book = (await a.post<PhonebookRecord>('/craetePhonebook', { name: 'Mine', description: '' })).body.data;
    const b = s.org();
    expect((await b.get(`/getPhonebook?phoneBookId=${book.id}`)).status).toBe(404);
    expect((await b.get<PhonebookRecord[]>('/getPhonebook')).body.data).toEqual([]);
  });
});

describe('messageHistory', () => {
  it('pages messages newest first with search and date filters', async () => {
    const org = s.org();
    for (let i = 1; i <= 12; i++) {
      await org.post('/sendMessage', { senderId: 'VENDESK', receiverNumber: `0803100${String(i).padStart(4, '0')}`, messageBody: `Notice number ${i}` });
    }
    const p1 = await org.get<PageObject<MessageRecord>>('/messageHistory?perPage=5');
    expect(p1.status).toBe(200);
    expect(p1.body.data.TotalRecords).toBe(12);
    expect(p1.body.data.TotalPages).toBe(3);
    expect(p1.body.data.Items[0].body).toBe('Notice number 12');
    expect(new URL(p1.body.data.NextPage).searchParams.get('page')).toBe('2');
    const p3 = await org.get<PageObject<MessageRecord>>('/messageHistory?perPage=5&page=3');
    expect(p3.body.data.Items.map((m) => m.body)).toEqual(['Notice number 2', 'Notice number 1']);
    const search = await org.get<PageObject<MessageRecord>>('/messageHistory?search=number%2011');
    expect(search.body.data.Items.map((m) => m.body)).toEqual(['Notice number 11']);
    const byPhone = await org.get<PageObject<MessageRecord>>('/messageHistory?search=2348031000003');
    expect(byPhone.body.data.TotalRecords).toBe(1);
    const today = new Date(Date.now()).toISOString().slice(0, 10);
    expect((await org.get<PageObject<MessageRecord>>(`/messageHistory?startdate=${today}&enddate=${today}`)).body.data.TotalRecords).toBe(12);
    expect((await org.get<PageObject<MessageRecord>>('/messageHistory?enddate=2020-01-01')).body.data.TotalRecords).toBe(0);
    expect((await org.get('/messageHistory?startdate=nope')).status).toBe(400);
    const empty = await s.org().get<PageObject<MessageRecord>>('/messageHistory');
    expect(empty.body.data).toEqual({ TotalPages: 0, CurrentPage: 1, TotalRecords: 0, NextPage: '', PreviousPage: '', Items: [] });
  });
});

describe('evidence (one-time codes)', () => {
  it('sends a code of numberOfDigits digits, delivered in the outbox, and confirms it exactly once', async () => {
    const org = s.org();
    const r = await org.post<EvidenceSent>('/sendEvidence', { receiverNumber: '2348031234567', senderId: 'VENDESK', numberOfDigits: 6, seconds: 300, sendtoEmail: false, emails: [] });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ receiverNumber: '08031234567', numberOfDigits: 6, cost: 4 });
    expect(Date.parse(r.body.data.expiresAt) - Date.now()).toBeGreaterThan(290_000);
    const [sms] = await outbox(org);
    expect(sms.channel).toBe('sms');
    expect(sms.code).toMatch(/^\d{6}$/);
    expect(sms.body).toContain(sms.code);
    expect(sms.reference).toBe(r.body.data.reference);
    const ok = await org.post<EvidenceConfirmed>('/confirmEvidence', { otp: sms.code, reference: r.body.data.reference });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ reference: r.body.data.reference, confirmed: true });
    const reused = await org.post('/confirmEvidence', { otp: sms.code, reference: r.body.data.reference });
    expect(reused.status).toBe(400);
    expect(reused.body.data).toMatch(/already used/);
    expect(await org.balance()).toBe(999_996);
  });

  it('refuses a wrong code (and still accepts the right one after), and an expired one', async () => {
    const org = s.org();
    const r = await org.post<EvidenceSent>('/sendEvidence', { receiverNumber: '08031234567', senderId: 'VENDESK', numberOfDigits: 8, seconds: 30 });
    const code = (await outbox(org))[0].code!;
    expect(code).toMatch(/^\d{8}$/);
    const wrong = await org.post('/confirmEvidence', { otp: code === '00000000' ? '11111111' : '00000000', reference: r.body.data.reference });
    expect(wrong.status).toBe(400);
    expect(wrong.body.data).toMatch(/does not match/);
    await org.advance(30);
    const expired = await org.post('/confirmEvidence', { otp: code, reference: r.body.data.reference });
    expect(expired.status).toBe(400);
    expect(expired.body.data).toMatch(/expired/);
    expect((await org.post('/confirmEvidence', { otp: code, reference: 'EVD-UNKNOWN' })).status).toBe(404);
  });

  it('bounds numberOfDigits to 6..100 and seconds to 30..86400, and needs an approved sender', async () => {
    const org = s.org();
    const base = { receiverNumber: '08031234567', senderId: 'VENDESK', numberOfDigits: 6, seconds: 60 };
    for (const bad of [{ numberOfDigits: 5 }, { numberOfDigits: 101 }, { numberOfDigits: 6.5 }, { seconds: 29 }, { seconds: 86_401 }, { senderId: 'PROMOTXT' }, { receiverNumber: '123' }]) {
      const r = await org.post('/sendEvidence', { ...base, ...bad });
      expect(r.status, JSON.stringify(bad)).toBe(400);
    }
    const long = await org.post<EvidenceSent>('/sendEvidence', { ...base, numberOfDigits: 100, seconds: 86_400, sendtoEmail: true, emails: ['sec@example.com'] });
    expect(long.status).toBe(200);
    const box = await outbox(org);
    expect(box[0].code).toMatch(/^\d{100}$/);
    expect(box[1]).toMatchObject({ channel: 'email', to: 'sec@example.com', code: box[0].code });
    expect(long.body.data.cost).toBe(4 * 2 + 1); // 100 digits make a two-page SMS
  });
});
