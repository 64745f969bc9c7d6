/**
 * The sandbox's messaging over real HTTP, once for each form it can answer the messaging
 * endpoints in (`standard`, `alt`, `sparse`; answerShapes.ts). Status codes, the wallet and the
 * outbox do not depend on the form; what an answer says is read the way vendesk reads it (by
 * meaning, src/main/api/messagingAnswers.ts), and where a form leaves a fact out the test says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboxEntry, PageObject } from '../../../src/shared/wire';
import type { AnswerContext } from '../../../src/main/api/decodeEnvelope';
import * as answers from '../../../src/main/api/messagingAnswers';
import { SHAPE_VARIANTS, type ShapeVariant } from '../../../src/sandbox/answerShapes';
import { naira, start, type Answer, type Org, type Started } from './sandboxHarness';

let s: Started;
beforeAll(async () => {
  s = await start();
});
afterAll(() => s.sandbox.close());

const template = (name: string, body = 'Hello {{1}}, your balance is {{2}}', indexes = ['1', '2']) => ({
  body,
  indexes,
  name,
  slug: name.toLowerCase().replace(/\s+/g, '-'),
  useCase: 'notification,billing',
});

async function outbox(org: Org): Promise<(OutboxEntry & { subject?: string })[]> {
  return org.control.outbox();
}

/** What an answer's data says, read as vendesk reads it. */
function context(a: Answer): AnswerContext {
  return { requestReference: a.body.requestReference, httpStatus: a.status, note: () => undefined };
}
const read = {
  senders: (a: Answer) => answers.readSenderIds(a.body.data, context(a)),
  template: (a: Answer) => answers.readCreatedTemplate(a.body.data, context(a)),
  templates: (a: Answer) => answers.readTemplates(a.body.data, context(a)),
  message: (a: Answer) => answers.readSentMessage(a.body.data, context(a)),
  status: (a: Answer) => answers.readMessageStatus(a.body.data, context(a)),
  history: (a: Answer) => answers.readMessageHistory(a.body.data, context(a)),
  evidence: (a: Answer) => answers.readEvidenceSent(a.body.data, context(a)),
  confirmed: (a: Answer) => answers.readEvidenceConfirmed(a.body.data, context(a)),
  phonebook: (a: Answer) => answers.readCreatedPhonebook(a.body.data, context(a)),
  phonebooks: (a: Answer) => answers.readPhonebooks(a.body.data, context(a)),
  phonebookWith: (id: number, a: Answer) => answers.readPhonebook(id, a.body.data, context(a)),
  contacts: (a: Answer) => answers.readContactsCreated(a.body.data, context(a)),
};

describe('answer shapes: the option, the control endpoint and what each form looks like', () => {
  it('answers the standard form by default; POST /__sandbox/shapes changes it for one organisation; reset restores it', async () => {
    const org = s.org();
    const other = s.org();
    expect((await org.control.send<{ shapes: ShapeVariant; variants: ShapeVariant[] }>('GET', 'shapes')).body.data).toEqual({ shapes: 'standard', variants: [...SHAPE_VARIANTS] });
    expect(Array.isArray((await org.get('/getSenderIds')).body.data)).toBe(true);
    expect((await org.control.send('POST', 'shapes', { shapes: 'alt' })).status).toBe(200);
    const alt = (await org.get<{ Items: Record<string, unknown>[]; TotalRecords: number }>('/getSenderIds')).body;
    expect(alt.gatewayStatus).toBe('00');
    expect(alt.data.TotalRecords).toBe(2);
    expect(alt.data.Items[0]).toMatchObject({ Id: '1', SenderId: 'PROMOTXT', Status: 'Pending', Network: 'ALL' });
    // Another organisation keeps its own form; documented endpoints keep theirs.
    expect(Array.isArray((await other.get('/getSenderIds')).body.data)).toBe(true);
    expect((await org.get<{ GlobalBalance: unknown[] }>('/accountBalance')).body.data.GlobalBalance).toHaveLength(1);
    const bad = await org.control.send('POST', 'shapes', { shapes: 'pascal' });
    expect(bad.status).toBe(400);
    expect(bad.body.data).toMatch(/shapes/);
    await org.control.reset();
    expect((await org.control.send<{ shapes: ShapeVariant }>('GET', 'shapes')).body.data.shapes).toBe('standard');
  });

  it("the sparse form leaves facts out: a send says only that it is queued; a code's reference is the envelope's", async () => {
    const org = s.org();
    await org.control.setShapes('sparse');
    const sent = await org.post('/sendMessage', { senderId: 'VENDESK', receiverNumber: '08031234567', messageBody: 'hi' });
    expect(sent.status).toBe(200);
    expect(sent.body.data).toEqual({ status: 'queued' });
    const code = await org.post<Record<string, unknown>>('/sendEvidence', { receiverNumber: '08031234567', senderId: 'VENDESK', numberOfDigits: 6, seconds: 60 });
    expect(code.body.data).toEqual({ status: 'sent' });
    expect(code.body.requestReference).toMatch(/^EVD/);
    expect((await outbox(org)).map((e) => e.reference)).toContain(code.body.requestReference);
  });

  it('a sandbox started with shapes: "alt" answers every organisation in that form', async () => {
    const alt = await start({ shapes: 'alt' });
    try {
      const r = await alt.org().get<{ Items: unknown[] }>('/getPhonebook');
      expect(r.body.data).toEqual({ Items: [], TotalRecords: 0, PageNumber: 1, PageSize: 0 });
    } finally {
      await alt.sandbox.close();
    }
  });
});

describe.each(SHAPE_VARIANTS)('messaging answered in the %s form', (variant) => {
  const sparse = variant === 'sparse';
  async function newOrg(prefix?: string): Promise<Org> {
    const org = s.org(prefix);
    const r = await org.control.send('POST', 'shapes', { shapes: variant });
    if (r.status !== 200) throw new Error(`shapes: ${r.status}`);
    return org;
  }

  describe('sender IDs', () => {
    it('starts every organisation with VENDESK approved and PROMOTXT pending for NG', async () => {
      const r = await (await newOrg()).get('/getSenderIds');
      expect(r.status).toBe(200);
      expect(r.body.gatewayStatus).toBe('00');
      const senders = read.senders(r);
      const byId = Object.fromEntries(senders.map((x) => [x.senderId, x.approval]));
      expect(byId).toEqual({ VENDESK: { NG: 'APPROVED' }, PROMOTXT: { NG: 'PENDING' } });
      if (sparse) expect(senders[0].createdAt).toBeNull();
      else expect(senders[0].createdAt).toMatch(/Z$/);
    });

    it('refuses to send with an unapproved or unknown sender ID, charging nothing', async () => {
      const org = await newOrg();
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
      const org = await newOrg();
      await org.control.holdClock();
      const r = await org.post('/createTemplates', template('Balance alert'));
      expect(r.status).toBe(200);
      const created = read.template(r);
      if (sparse) expect(created).toMatchObject({ name: null, body: null, approval: { NG: 'PENDING' } });
      else expect(created).toMatchObject({ name: 'Balance alert', slug: 'balance-alert', indexes: ['1', '2'], useCase: 'notification,billing', approval: { NG: 'PENDING' } });
      expect(created.id).toMatch(/^TPL/);
      await org.advance(59);
      expect(read.templates(await org.get('/getTemplates'))[0].approval?.NG).toBe('PENDING');
      await org.advance(1);
      const list = read.templates(await org.get('/getTemplates'));
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({ id: created.id, name: 'Balance alert', body: 'Hello {{1}}, your balance is {{2}}', indexes: ['1', '2'], approval: { NG: 'APPROVED' } });
    });

    it('rejects a template whose name starts with "reject"', async () => {
      const org = await newOrg();
      await org.post('/createTemplates', template('rejected promo'));
      await org.advance(60);
      const [t] = read.templates(await org.get('/getTemplates'));
      expect(t.approval?.NG).toBe('REJECTED');
      const send = await org.post('/sendMessage', { senderId: 'VENDESK', receiverNumber: '08031234567', templateInUse: true, template: { templateId: t.id, indexes: ['a', 'b'] } });
      expect(send.status).toBe(400);
      expect(send.body.data).toMatch(/not approved.*REJECTED/);
    });

    it('accepts placeholders in any order, and repeated', async () => {
      const org = await newOrg();
      expect((await org.post('/createTemplates', template('Any order', '{{2}} owes {{1}}; pay {{1}} now', ['2', '1']))).status).toBe(200);
      expect((await org.post('/createTemplates', template('No placeholders', 'Office closed today', []))).status).toBe(200);
    });

    it('refuses skipped or non-numeric placeholders and indexes that do not match', async () => {
      const org = await newOrg();
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
      expect(read.templates(await org.get('/getTemplates'))).toEqual([]);
    });
  });

  describe('sendMessage', () => {
    it('sends one SMS for 4 Naira per 160-character page, with delivery in the outbox and status by reference', async () => {
      const org = await newOrg();
      const r = await org.post('/sendMessage', { senderId: 'VENDESK', receiverNumber: '+2348031234567', messageBody: 'Your payslip is ready', isBulk: false });
      expect(r.status).toBe(200);
      expect(r.body.gatewayStatus).toBe('00');
      const m = read.message(r);
      if (sparse) expect(m).toMatchObject({ reference: null, totalKobo: null, status: 'SENT' });
      else
        expect(m).toMatchObject({
          senderId: 'VENDESK',
          body: 'Your payslip is ready',
          isBulk: false,
          recipients: ['08031234567'],
          recipientCount: 1,
          pages: 1,
          smsKobo: 400,
          emailKobo: 0,
          totalKobo: 400,
          status: 'SENT',
        });
      expect(await org.balance()).toBe(999_996);
      const box = await outbox(org);
      expect(box).toEqual([
        {
          channel: 'sms',
          to: '08031234567',
          body: 'Your payslip is ready',
          reference: sparse ? expect.stringMatching(/^MSG/) : m.reference,
          createdAt: expect.stringMatching(/Z$/),
        },
      ]);
      const reference = box[0].reference;
      const status = await org.get(`/MSQ/${reference}`);
      expect(status.status).toBe(200);
      expect(read.status(status).status).toBe('SENT');
      await org.advance(5);
      expect(read.status(await org.get(`/MSQ/${reference}`)).status).toBe('DELIVERED');
      expect((await org.get('/MSQ/UNKNOWN')).status).toBe(404);
    });

    it('charges per page: 161 characters are two pages', async () => {
      const org = await newOrg();
      const r = await org.post('/sendMessage', { senderId: 'VENDESK', receiverNumber: '08031234567', messageBody: 'x'.repeat(161) });
      expect(r.status).toBe(200);
      if (!sparse) expect(read.message(r)).toMatchObject({ pages: 2, smsKobo: 800 });
      expect(await org.balance()).toBe(999_992);
    });

    it('copies to email for 1 Naira per address, with the subject', async () => {
      const org = await newOrg();
      const r = await org.post('/sendMessage', {
        senderId: 'VENDESK',
        receiverNumber: '08031234567',
        messageBody: 'Salary paid',
        sendtoEmail: true,
        emails: ['ada@example.com', 'femi@example.ng'],
        subject: 'Payroll',
      });
      expect(r.status).toBe(200);
      if (!sparse) expect(read.message(r)).toMatchObject({ emails: ['ada@example.com', 'femi@example.ng'], smsKobo: 400, emailKobo: 200, totalKobo: 600 });
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
      const org = await newOrg();
      const pendingT = read.template(await org.post('/createTemplates', template('Fresh')));
      const templateId = pendingT.id ?? '';
      const refused = await org.post('/sendMessage', {
        senderId: 'VENDESK',
        receiverNumber: '08031234567',
        templateInUse: true,
        template: { templateId, indexes: ['Ada', 'NGN 5,000'] },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.data).toMatch(/not approved.*PENDING/);
      await org.advance(60);
      const r = await org.post('/sendMessage', {
        senderId: 'VENDESK',
        receiverNumber: '08031234567',
        messageBody: 'ignored',
        templateInUse: true,
        template: { templateId, indexes: ['Ada', 'NGN 5,000'] },
      });
      expect(r.status).toBe(200);
      expect((await outbox(org)).map((e) => e.body)).toEqual(['Hello Ada, your balance is NGN 5,000']);
      if (!sparse) expect(read.message(r)).toMatchObject({ body: 'Hello Ada, your balance is NGN 5,000', templateId });
      const wrong = await org.post('/sendMessage', { senderId: 'VENDESK', receiverNumber: '08031234567', templateInUse: true, template: { templateId, indexes: ['Ada'] } });
      expect(wrong.status).toBe(400);
      const unknown = await org.post('/sendMessage', {
        senderId: 'VENDESK',
        receiverNumber: '08031234567',
        templateInUse: true,
        template: { templateId: 'TPL-NOPE', indexes: [] },
      });
      expect(unknown.status).toBe(404);
    });

    it('refuses an empty body, a bad number, a missing receiver and insufficient balance', async () => {
      const org = await newOrg();
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
      const org = await newOrg('unconfigured');
      const r = await org.post('/sendMessage', { senderId: 'VENDESK', receiverNumber: '08031234567', messageBody: 'hi' });
      expect(r.status).toBe(422);
      expect((await org.post('/sendEvidence', { receiverNumber: '08031234567', senderId: 'VENDESK', numberOfDigits: 6, seconds: 60 })).status).toBe(422);
      expect((await org.get('/getSenderIds')).status).toBe(200);
      expect((await org.post('/craetePhonebook', { name: 'ok', description: '' })).status).toBe(200);
    });
  });

  describe('phonebooks, contacts and bulk sends', () => {
    /** A phonebook's contacts, as the service lists them. */
    async function contactsOf(org: Org, id: number) {
      return read.phonebookWith(id, await org.get(`/getPhonebook?phoneBookId=${id}`))?.contacts ?? [];
    }

    it('creates phonebooks (/craetePhonebook) and lists them', async () => {
      const org = await newOrg();
      const a = await org.post('/craetePhonebook', { name: 'Field staff', description: 'Lagos and Abuja' });
      expect(a.status).toBe(200);
      const created = read.phonebook(a);
      if (!sparse) expect(created).toMatchObject({ name: 'Field staff', description: 'Lagos and Abuja', contactCount: 0 });
      expect(Number.isInteger(created.id)).toBe(true);
      await org.post('/craetePhonebook', { name: 'Vendors', description: '' });
      const list = read.phonebooks(await org.get('/getPhonebook'));
      expect(list.map((p) => p.name)).toEqual(['Field staff', 'Vendors']);
      expect(list.map((p) => p.contactCount)).toEqual(sparse ? [null, null] : [0, 0]);
      expect((await org.post('/craetePhonebook', { description: 'no name' })).status).toBe(400);
    });

    it('adds contacts to the most recent phonebook, or to ?phoneBookId=N, skipping numbers already there', async () => {
      const org = await newOrg();
      expect((await org.post('/createContact', [{ name: 'Ada', phoneNumber: '08031234567' }])).status).toBe(400); // no phonebook yet
      const first = read.phonebook(await org.post('/craetePhonebook', { name: 'First', description: '' })).id ?? NaN;
      const second = read.phonebook(await org.post('/craetePhonebook', { name: 'Second', description: '' })).id ?? NaN;
      const r = await org.post('/createContact', [
        { name: 'Ada Okafor', phoneNumber: '08031234567' },
        { name: 'Femi Bello', phoneNumber: '2348021234567' },
        { name: 'Ada again', phoneNumber: '+2348031234567' },
      ]);
      expect(r.status).toBe(200);
      expect(read.contacts(r)).toEqual(sparse ? { phoneBookId: null, added: null, skipped: null } : { phoneBookId: second, added: 2, skipped: 1 });
      expect((await contactsOf(org, second)).map((c) => c.phoneNumber)).toEqual(['08031234567', '08021234567']);
      const again = await org.post('/createContact', [{ name: 'Ada', phoneNumber: '8031234567' }]);
      if (!sparse) expect(read.contacts(again)).toMatchObject({ added: 0, skipped: 1 });
      expect(await contactsOf(org, second)).toHaveLength(2);
      const toFirst = await org.post(`/createContact?phoneBookId=${first}`, [{ name: 'Ada', phoneNumber: '08031234567' }]);
      if (!sparse) expect(read.contacts(toFirst)).toMatchObject({ phoneBookId: first, added: 1, skipped: 0 });
      expect((await contactsOf(org, first)).map((c) => c.phoneNumber)).toEqual(['08031234567']);
      const one = read.phonebookWith(second, await org.get(`/getPhonebook?phoneBookId=${second}`));
      expect(one?.contactCount).toBe(2);
      expect(one?.contacts?.map((c) => c.name)).toEqual(['Ada Okafor', 'Femi Bello']);
      expect((await org.get(`/getPhonebook?phoneBookId=99999`)).status).toBe(404);
      expect((await org.post(`/createContact?phoneBookId=99999`, [{ name: 'x', phoneNumber: '08031234567' }])).status).toBe(404);
    });

    it('refuses a contact list with an invalid number and adds none of it', async () => {
      const org = await newOrg();
      const book = read.phonebook(await org.post('/craetePhonebook', { name: 'Book', description: '' })).id ?? NaN;
      const r = await org.post('/createContact', [
        { name: 'Ok', phoneNumber: '08031234567' },
        { name: 'Bad', phoneNumber: '0703' },
      ]);
      expect(r.status).toBe(400);
      expect(r.body.data).toMatch(/contact 2/);
      expect(await contactsOf(org, book)).toEqual([]);
      expect((await org.post('/createContact', [])).status).toBe(400);
    });

    it('sends in bulk to a phonebook: one SMS per contact, charged per recipient; receiverNumber ignored', async () => {
      const org = await newOrg();
      const book = read.phonebook(await org.post('/craetePhonebook', { name: 'Staff', description: '' })).id ?? NaN;
      await org.post('/createContact', [
        { name: 'A', phoneNumber: '08031110001' },
        { name: 'B', phoneNumber: '08031110002' },
        { name: 'C', phoneNumber: '08031110003' },
      ]);
      const r = await org.post('/sendMessage', {
        senderId: 'VENDESK',
        receiverNumber: '08099999999',
        messageBody: 'Meeting at 9',
        isBulk: true,
        phoneBookId: book,
        sendtoEmail: true,
        emails: ['hr@example.com'],
      });
      expect(r.status).toBe(200);
      if (!sparse) expect(read.message(r)).toMatchObject({ isBulk: true, phoneBookId: book, recipientCount: 3, smsKobo: 1200, emailKobo: 100, totalKobo: 1300 });
      expect(await org.balance()).toBe(naira(1_000_000, -13));
      const box = await outbox(org);
      expect(box.filter((e) => e.channel === 'sms').map((e) => e.to)).toEqual(['08031110001', '08031110002', '08031110003']);
      expect((await org.post('/sendMessage', { senderId: 'VENDESK', messageBody: 'x', isBulk: true })).status).toBe(400);
      expect((await org.post('/sendMessage', { senderId: 'VENDESK', messageBody: 'x', isBulk: true, phoneBookId: 424242 })).status).toBe(404);
      const empty = read.phonebook(await org.post('/craetePhonebook', { name: 'Empty', description: '' })).id ?? NaN;
      expect((await org.post('/sendMessage', { senderId: 'VENDESK', messageBody: 'x', isBulk: true, phoneBookId: empty })).status).toBe(400);
    });

    it('does not share phonebooks between organisations', async () => {
      const a = await newOrg();
      const book = read.phonebook(await a.post('/craetePhonebook', { name: 'Mine', description: '' })).id ?? NaN;
      const b = await newOrg();
      expect((await b.get(`/getPhonebook?phoneBookId=${book}`)).status).toBe(404);
      expect(read.phonebooks(await b.get('/getPhonebook'))).toEqual([]);
    });
  });

  describe('messageHistory', () => {
    it('pages messages newest first with search and date filters', async () => {
      const org = await newOrg();
      for (let i = 1; i <= 12; i++) {
        await org.post('/sendMessage', { senderId: 'VENDESK', receiverNumber: `0803100${String(i).padStart(4, '0')}`, messageBody: `Notice number ${i}` });
      }
      const p1 = await org.get('/messageHistory?perPage=5');
      expect(p1.status).toBe(200);
      const page1 = read.history(p1);
      expect(page1.totalRecords).toBe(12);
      expect(page1.items[0].body).toBe('Notice number 12');
      expect(page1.items).toHaveLength(5);
      if (variant === 'standard') {
        const raw = p1.body.data as PageObject<unknown>;
        expect(raw.TotalPages).toBe(3);
        expect(new URL(raw.NextPage).searchParams.get('page')).toBe('2');
      }
      const p3 = read.history(await org.get('/messageHistory?perPage=5&page=3'));
      expect(p3.items.map((m) => m.body)).toEqual(['Notice number 2', 'Notice number 1']);
      const search = read.history(await org.get('/messageHistory?search=number%2011'));
      expect(search.items.map((m) => m.body)).toEqual(['Notice number 11']);
      expect(read.history(await org.get('/messageHistory?search=2348031000003')).totalRecords).toBe(1);
      const today = new Date(Date.now()).toISOString().slice(0, 10);
      expect(read.history(await org.get(`/messageHistory?startdate=${today}&enddate=${today}`)).totalRecords).toBe(12);
      expect(read.history(await org.get('/messageHistory?enddate=2020-01-01')).totalRecords).toBe(0);
      expect((await org.get('/messageHistory?startdate=nope')).status).toBe(400);
      const empty = await (await newOrg()).get('/messageHistory');
      expect(read.history(empty)).toMatchObject({ items: [], totalRecords: 0 });
      if (variant === 'standard') expect(empty.body.data).toEqual({ TotalPages: 0, CurrentPage: 1, TotalRecords: 0, NextPage: '', PreviousPage: '', Items: [] });
    });
  });

  describe('evidence (one-time codes)', () => {
    /** The reference that confirms a code: the answer's, or in the sparse form the envelope's. */
    function referenceOf(a: Answer): string {
      const e = read.evidence(a);
      if (sparse) expect(e.reference).toBeNull();
      return e.reference ?? e.requestReference;
    }

    it('sends a code of numberOfDigits digits, delivered in the outbox, and confirms it exactly once', async () => {
      const org = await newOrg();
      // The code lives 300 s from when the sandbox sent it, which is between these two readings of
      // the clock it shares with the test (a bound that holds however long the request took).
      const before = Date.now();
      const r = await org.post('/sendEvidence', { receiverNumber: '2348031234567', senderId: 'VENDESK', numberOfDigits: 6, seconds: 300, sendtoEmail: false, emails: [] });
      const after = Date.now();
      expect(r.status).toBe(200);
      const e = read.evidence(r);
      if (!sparse) {
        expect(e).toMatchObject({ receiverNumber: '08031234567', numberOfDigits: 6, costKobo: 400 });
        const expiresAt = Date.parse(e.expiresAt ?? '');
        expect(expiresAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 300_000);
        expect(expiresAt).toBeLessThanOrEqual(after + 300_000);
      }
      const reference = referenceOf(r);
      const [sms] = await outbox(org);
      expect(sms.channel).toBe('sms');
      expect(sms.code).toMatch(/^\d{6}$/);
      expect(sms.body).toContain(sms.code);
      expect(sms.reference).toBe(reference);
      const ok = await org.post('/confirmEvidence', { otp: sms.code, reference });
      expect(ok.status).toBe(200);
      expect(read.confirmed(ok)).toMatchObject({ reference: sparse ? null : reference, confirmed: true });
      const reused = await org.post('/confirmEvidence', { otp: sms.code, reference });
      expect(reused.status).toBe(400);
      expect(reused.body.data).toMatch(/already used/);
      expect(await org.balance()).toBe(999_996);
    });

    it('refuses a wrong code (and still accepts the right one after), and an expired one', async () => {
      const org = await newOrg();
      const r = await org.post('/sendEvidence', { receiverNumber: '08031234567', senderId: 'VENDESK', numberOfDigits: 8, seconds: 30 });
      const reference = referenceOf(r);
      const code = (await outbox(org))[0].code!;
      expect(code).toMatch(/^\d{8}$/);
      const wrong = await org.post('/confirmEvidence', { otp: code === '00000000' ? '11111111' : '00000000', reference });
      expect(wrong.status).toBe(400);
      expect(wrong.body.data).toMatch(/does not match/);
      await org.advance(30);
      const expired = await org.post('/confirmEvidence', { otp: code, reference });
      expect(expired.status).toBe(400);
      expect(expired.body.data).toMatch(/expired/);
      expect((await org.post('/confirmEvidence', { otp: code, reference: 'EVD-UNKNOWN' })).status).toBe(404);
    });

    it('bounds numberOfDigits to 6..100 and seconds to 30..86400, and needs an approved sender', async () => {
      const org = await newOrg();
      const base = { receiverNumber: '08031234567', senderId: 'VENDESK', numberOfDigits: 6, seconds: 60 };
      for (const bad of [
        { numberOfDigits: 5 },
        { numberOfDigits: 101 },
        { numberOfDigits: 6.5 },
        { seconds: 29 },
        { seconds: 86_401 },
        { senderId: 'PROMOTXT' },
        { receiverNumber: '123' },
      ]) {
        const r = await org.post('/sendEvidence', { ...base, ...bad });
        expect(r.status, JSON.stringify(bad)).toBe(400);
      }
      const long = await org.post('/sendEvidence', { ...base, numberOfDigits: 100, seconds: 86_400, sendtoEmail: true, emails: ['sec@example.com'] });
      expect(long.status).toBe(200);
      const box = await outbox(org);
      expect(box[0].code).toMatch(/^\d{100}$/);
      expect(box[1]).toMatchObject({ channel: 'email', to: 'sec@example.com', code: box[0].code });
      expect(read.evidence(long).costKobo).toBe(sparse ? null : (4 * 2 + 1) * 100); // 100 digits make a two-page SMS
      expect(await org.balance()).toBe(naira(1_000_000, -9));
    });
  });
});
