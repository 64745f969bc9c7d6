/**
 * The messaging answers, whose shapes the spec does not show, are read by meaning: each reader is
 * given the same facts in the spellings services plausibly use, and answers that leave facts out.
 */
import { describe, expect, it } from 'vitest';
import { decodeLooseAnswer, MalformedResponseError, type AnswerContext } from '../../../src/main/api/decodeEnvelope';
import * as read from '../../../src/main/api/messagingAnswers';

function ctx(requestReference = 'REQ1'): AnswerContext & { notes: string[] } {
  const notes: string[] = [];
  return { requestReference, httpStatus: 200, note: (t) => notes.push(t), notes };
}

describe('sender IDs', () => {
  it('reads the same list in camelCase, PascalCase, snake_case, wrapped or bare, with approval as a map, a word or a flag', () => {
    const forms: unknown[] = [
      [
        { senderId: 'VENDESK', approval: { NG: 'APPROVED' } },
        { senderId: 'PROMOTXT', approval: { NG: 'PENDING' } },
      ],
      {
        Items: [
          { SenderId: 'VENDESK', Status: 'Approved' },
          { SenderId: 'PROMOTXT', Status: 'Pending' },
        ],
        TotalRecords: 2,
      },
      {
        data: [
          { sender_id: 'VENDESK', approval_status: 'active' },
          { sender_id: 'PROMOTXT', approval_status: 'in review' },
        ],
      },
      {
        records: [
          { name: 'VENDESK', approved: true },
          { name: 'PROMOTXT', approved: false },
        ],
      },
      {
        senders: [
          { Sender: 'VENDESK', Approvals: [{ Country: 'ng', Status: 'APPROVED' }] },
          { Sender: 'PROMOTXT', Approvals: [{ Country: 'NG', Status: 'submitted' }] },
        ],
      },
    ];
    for (const form of forms) {
      expect(
        read.readSenderIds(form, ctx()).map((s) => [s.senderId, s.approval]),
        JSON.stringify(form),
      ).toEqual([
        ['VENDESK', { NG: 'APPROVED' }],
        ['PROMOTXT', { NG: 'PENDING' }],
      ]);
    }
  });

  it('reads a bare list of names, noting that approval is not given; a text is no list', () => {
    const c = ctx();
    expect(read.readSenderIds(['VENDESK'], c)).toEqual([{ senderId: 'VENDESK', approval: null, createdAt: null }]);
    expect(c.notes).toContain('The sender IDs do not say whether they are approved.');
    expect(() => read.readSenderIds('VENDESK', ctx())).toThrow(/no list of sender IDs/);
  });
});

describe('templates', () => {
  it('reads ids as strings or numbers, the text under other names, indexes derived from the text when not listed', () => {
    const list = read.readTemplates(
      {
        Items: [
          { TemplateId: 17, TemplateName: 'Pay', Content: 'Hi {{2}}, {{1}} paid', UseCases: ['payroll', 'alerts'], Status: 'Approved', DateCreated: '2026-01-05 14:03:22' },
          { id: 'T2', name: 'Plain', body: 'Closed today', placeholders: [], status: 'rejected' },
          { name: 'no id' },
        ],
      },
      ctx(),
    );
    expect(list).toEqual([
      {
        id: '17',
        name: 'Pay',
        slug: null,
        body: 'Hi {{2}}, {{1}} paid',
        indexes: ['1', '2'],
        useCase: 'payroll,alerts',
        approval: { NG: 'APPROVED' },
        createdAt: '2026-01-05T14:03:22.000Z',
      },
      { id: 'T2', name: 'Plain', slug: null, body: 'Closed today', indexes: [], useCase: null, approval: { NG: 'REJECTED' }, createdAt: null },
    ]);
  });

  it('a created template with only an id is still read (the caller completes it), and says what is missing', () => {
    const c = ctx();
    expect(read.readCreatedTemplate({ id: 'TPL9', status: 'pending' }, c)).toMatchObject({ id: 'TPL9', name: null, approval: { NG: 'PENDING' } });
    const d = ctx();
    expect(read.readCreatedTemplate('Template created', d).id).toBeNull();
    expect(d.notes).toContain("The answer does not give the new template's id.");
  });
});

describe('messages', () => {
  it('reads a message in the alt spelling: nested cost in Naira text, wrapped recipients, status words', () => {
    const m = read.readSentMessage(
      {
        MessageId: 'MSG1',
        Sender: 'VENDESK',
        Text: 'Meeting at 9',
        PhoneBookId: '12',
        Recipients: { Items: ['2348031110001', '08031110002'], TotalRecords: '2' },
        Pages: '1',
        EmailCopies: { Items: ['hr@example.com'] },
        Cost: { Sms: '8.00', Email: '1.00', Total: 'NGN 9.00' },
        Status: 'Submitted',
        DateSent: 1767621802,
        Extra: { anything: true },
      },
      ctx('REQ9'),
    );
    expect(m).toEqual({
      reference: 'MSG1',
      requestReference: 'REQ9',
      senderId: 'VENDESK',
      body: 'Meeting at 9',
      isBulk: true,
      phoneBookId: 12,
      recipients: ['08031110001', '08031110002'],
      recipientCount: 2,
      pages: 1,
      emails: ['hr@example.com'],
      smsKobo: 800,
      emailKobo: 100,
      totalKobo: 900,
      status: 'SENT',
      templateId: null,
      createdAt: '2026-01-05T14:03:22.000Z',
    });
  });

  it('a send answered with almost nothing is still a sent message, its reference and cost noted as not given', () => {
    for (const data of [{ status: 'queued' }, {}, null, 'Message sent successfully', [1, 2]]) {
      const c = ctx();
      const m = read.readSentMessage(data, c);
      expect(m).toMatchObject({ reference: null, totalKobo: null, requestReference: 'REQ1' });
      expect(c.notes).toEqual(["The answer does not give the message's reference.", 'The answer does not say what the message cost.']);
    }
  });

  it('reads delivery words as one of the three states', () => {
    expect(['DELIVRD', 'delivered', 'Success'].map(read.messageStatusWord)).toEqual(['DELIVERED', 'DELIVERED', 'DELIVERED']);
    expect(['queued', 'Submitted', 'EnRoute'].map(read.messageStatusWord)).toEqual(['SENT', 'SENT', 'SENT']);
    expect(['UNDELIV', 'rejected', 'expired'].map(read.messageStatusWord)).toEqual(['FAILED', 'FAILED', 'FAILED']);
    expect(read.messageStatusWord('purple')).toBeNull();
  });

  it('reads history as a page object, a { data, meta } page, or a bare list (total unknown, said so)', () => {
    const item = { ref: 'MSG1', message: 'hi', status: 'delivered' };
    expect(read.readMessageHistory({ TotalPages: 3, CurrentPage: 1, TotalRecords: 12, NextPage: 'http://x/?page=2', PreviousPage: '', Items: [item] }, ctx())).toMatchObject({
      totalRecords: 12,
      totalPages: 3,
      nextPage: 'http://x/?page=2',
    });
    expect(read.readMessageHistory({ data: [item], meta: { total: '12', last_page: 3 } }, ctx())).toMatchObject({ totalRecords: 12, totalPages: 3 });
    const c = ctx();
    const bare = read.readMessageHistory([item], c);
    expect(bare).toMatchObject({ totalRecords: null, totalPages: null, nextPage: null });
    expect(bare.items[0]).toMatchObject({ reference: 'MSG1', body: 'hi', status: 'DELIVERED', totalKobo: null });
    expect(c.notes.join(' ')).toMatch(/does not say how many messages/);
  });
});

describe('one-time codes', () => {
  it("reads a code sent under other names; a code's missing reference is noted (the envelope may carry it)", () => {
    expect(read.readEvidenceSent({ Reference: 'EVD1', Recipient: '2348031234567', Length: '6', ExpiryDate: '2026-01-05T14:08:22Z', Cost: '4.00' }, ctx())).toEqual({
      reference: 'EVD1',
      requestReference: 'REQ1',
      receiverNumber: '08031234567',
      numberOfDigits: 6,
      expiresAt: '2026-01-05T14:08:22.000Z',
      costKobo: 400,
    });
    const c = ctx('EVD2');
    expect(read.readEvidenceSent({ status: 'sent' }, c)).toMatchObject({ reference: null, requestReference: 'EVD2', costKobo: null });
    expect(c.notes).toContain("The answer does not give the code's reference.");
  });

  it('a success answer confirms, unless its data says the code was not accepted', () => {
    expect(read.readEvidenceConfirmed({ Verified: true }, ctx()).confirmed).toBe(true);
    expect(read.readEvidenceConfirmed('OTP verified', ctx()).confirmed).toBe(true);
    expect(read.readEvidenceConfirmed({ verified: false, message: 'OTP has expired' }, ctx())).toMatchObject({ confirmed: false, reason: 'OTP has expired' });
    expect(read.readEvidenceConfirmed({ status: 'INVALID_OTP' }, ctx())).toMatchObject({ confirmed: false, reason: 'INVALID_OTP' });
  });
});

describe('phonebooks and contacts', () => {
  it('reads phonebooks with ids as strings and counts under other names; entries without a whole-number id are left out and noted', () => {
    const c = ctx();
    const list = read.readPhonebooks(
      {
        Items: [
          { PhoneBookId: '12', Name: 'Staff', TotalContacts: '1,204' },
          { phonebook_id: 13, name: 'Drivers' },
          { id: 'abc', name: 'Odd' },
        ],
      },
      c,
    );
    expect(list.map((p) => [p.id, p.name, p.contactCount])).toEqual([
      [12, 'Staff', 1204],
      [13, 'Drivers', null],
    ]);
    expect(c.notes).toContain('1 of 3 phonebooks (no whole-number id) could not be read and are not shown.');
    expect(c.notes).toContain('1 of 2 phonebooks do not say how many contacts they hold.');
  });

  it('reads one phonebook with its contacts, from a list answer (query ignored), or from the contacts alone', () => {
    const contacts = [
      { Msisdn: '2348031234567', FullName: 'Ada' },
      { phone_number: '0802 123 4567', first_name: 'Femi', last_name: 'Bello' },
    ];
    const one = read.readPhonebook(12, { PhoneBookId: '12', Name: 'Staff', Contacts: { Items: contacts } }, ctx());
    expect(one?.contacts?.map((x) => [x.phoneNumber, x.name])).toEqual([
      ['08031234567', 'Ada'],
      ['08021234567', 'Femi Bello'],
    ]);
    expect(one?.contactCount).toBe(2);
    expect(
      read.readPhonebook(
        13,
        [
          { id: 12, name: 'Staff' },
          { id: 13, name: 'Drivers', contacts },
        ],
        ctx(),
      )?.name,
    ).toBe('Drivers');
    expect(read.readPhonebook(14, [{ id: 12, name: 'Staff' }], ctx())).toBeNull();
    expect(read.readPhonebook(12, { data: contacts }, ctx())).toMatchObject({ id: 12, name: null, contactCount: 2 });
    const c = ctx();
    expect(read.readPhonebook(12, { id: 12, name: 'Staff' }, c)?.contacts).toBeNull();
    expect(c.notes).toContain("The answer does not list the phonebook's contacts.");
  });

  it('reads contacts-added counts under other names; a sentence gives none', () => {
    expect(read.readContactsCreated({ PhoneBookId: '12', Added: '2', Duplicates: '1' }, ctx())).toEqual({ phoneBookId: 12, added: 2, skipped: 1 });
    expect(read.readContactsCreated({ created: [{}, {}, {}] }, ctx())).toMatchObject({ added: 3, skipped: null });
    const c = ctx();
    expect(read.readContactsCreated('3 contact(s) saved', c)).toEqual({ phoneBookId: null, added: null, skipped: null });
    expect(c.notes).toContain('The answer does not say how many contacts were added.');
  });
});

describe('decodeLooseAnswer: the envelope of a not-shown answer', () => {
  const senders = (status: number, body: unknown, notes: string[] = []) => decodeLooseAnswer(status, body, read.readSenderIds, (t) => notes.push(t));

  it('reads the envelope in any key case, with the status as a number', () => {
    const r = senders(200, { GatewayStatus: 0, GatewayMessage: 'Successfully Processed', RequestReference: 'R1', Data: [{ SenderId: 'X' }] });
    expect(r).toMatchObject({ kind: 'success', reference: 'R1', data: [{ senderId: 'X' }] });
    expect(senders(200, { gateway_status: '88', data: 'not allowed' })).toMatchObject({ kind: 'failed', reason: 'not allowed' });
  });

  it('a JSON answer without an envelope: its HTTP status decides, unless it says success: false', () => {
    const notes: string[] = [];
    expect(senders(200, [{ senderId: 'X' }], notes)).toMatchObject({ kind: 'success', data: [{ senderId: 'X' }] });
    expect(notes.join(' ')).toMatch(/not in the service's envelope/);
    expect(senders(200, { success: false, message: 'Invalid sender' })).toMatchObject({ kind: 'failed', reason: 'Invalid sender' });
    expect(senders(401, { Message: 'Token expired' })).toMatchObject({ kind: 'failed', reason: 'Token expired', httpStatus: 401 });
  });

  it('a pending answer to a write is accepted: a success, noted', () => {
    const notes: string[] = [];
    const r = decodeLooseAnswer(202, { gatewayStatus: '01', data: {} }, read.readSentMessage, (t) => notes.push(t));
    expect(r.kind).toBe('success');
    expect(notes[0]).toMatch(/pending/);
  });

  it('refuses what cannot be read: a web page, an unknown status, a list that is not there', () => {
    expect(() => senders(200, '<html>hello</html>')).toThrow(MalformedResponseError);
    expect(() => senders(200, { gatewayStatus: '77', data: [] })).toThrow(/unknown gatewayStatus "77"/);
    expect(() => senders(200, { gatewayStatus: '00', data: 'OK' })).toThrow(/no list of sender IDs/);
  });
});
