/**
 * The answers kept for support: the token and phone numbers never stay in them, in any form the
 * service writes them; five per endpoint; long bodies cut.
 */
import { describe, expect, it } from 'vitest';
import { registerSecret } from '../../../src/main/redact';
import { redactPhoneNumbers } from '../../../src/main/redactPhoneNumbers';
import { ANSWERS_PER_ENDPOINT, BODY_CHARS, ServiceAnswers } from '../../../src/main/api/serviceAnswers';

const TOKEN = 'tok-9f8e7d6c5b4a-answers';

function keep(answers: ServiceAnswers, body: unknown, path = '/getSenderIds?search=08031234567') {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return answers.record({
    endpoint: 'getSenderIds',
    method: 'GET',
    url: new URL(`http://svc.example${path}`),
    startedMs: Date.now(),
    httpStatus: 200,
    contentType: 'application/json',
    text,
    parsed: typeof body === 'string' ? body : body,
  });
}

describe('phone numbers are redacted in every form, and only phone numbers', () => {
  it('hides 080…, 234…, +234…, 10-digit and spaced forms, keeping the last two digits', () => {
    const text = 'to 08031234567, 2348061234567 and +234 805 765 4321 or 8031112222; "msisdn":"+2348091234500"';
    expect(redactPhoneNumbers(text)).toBe('to [phone …67], [phone …67] and [phone …21] or [phone …22]; "msisdn":"[phone …00]"');
  });

  it('leaves references, timestamps, amounts and longer digit runs alone', () => {
    const text = 'MSG20261125035021786BA024022 REQ2026112503502199A06DDE021 1767621802000 NGN 1,000.00 080312345678901 12345678901 ref-08031234567x';
    expect(redactPhoneNumbers(text)).toBe(text);
  });
});

describe('ServiceAnswers', () => {
  it('keeps the answer pretty-printed, the token and the numbers out of its body and path', () => {
    registerSecret(TOKEN);
    const answers = new ServiceAnswers();
    const kept = keep(answers, { gatewayStatus: '00', data: { echo: `Bearer ${TOKEN}`, raw: TOKEN, to: ['08031234567', '2348031234567'] } });
    expect(kept.body).not.toContain(TOKEN);
    expect(kept.body).not.toMatch(/8031234567/);
    expect(kept.body).toContain('[redacted]');
    expect(kept.body).toContain('"to": [\n');
    expect(kept.path).toBe('/getSenderIds?search=[phone …67]');
    expect(kept).toMatchObject({ endpoint: 'getSenderIds', subject: 'The sender ID list', envelope: true, reading: 'read', httpStatus: 200 });
  });

  it('keeps the last five of each endpoint, newest first, and cuts a long body', () => {
    const answers = new ServiceAnswers();
    for (let i = 0; i < 7; i++) keep(answers, { gatewayStatus: '00', data: [i] });
    const list = answers.list();
    expect(list).toHaveLength(ANSWERS_PER_ENDPOINT);
    expect(list.map((a) => JSON.parse(a.body).data[0])).toEqual([6, 5, 4, 3, 2]);
    const long = keep(answers, 'x'.repeat(BODY_CHARS + 500));
    expect(long.envelope).toBe(false);
    expect(long.bodyChars).toBe(BODY_CHARS + 500);
    expect(long.body).toMatch(/… \(500 more characters not kept\)$/);
    expect(answers.last('getSenderIds')).toBe(long);
  });

  it('a number or the token across the cut is hidden whole; a large body is kept as it came, cut', () => {
    registerSecret(TOKEN);
    const answers = new ServiceAnswers();
    for (const secret of ['08031234567', TOKEN]) {
      const text = `${'x'.repeat(BODY_CHARS - 4)} ${secret} ${'y'.repeat(100_000)}`;
      const kept = keep(answers, text);
      expect(kept.body.slice(0, BODY_CHARS)).not.toMatch(/803|tok-9f8e/);
      expect(kept.bodyChars).toBe(text.length);
    }
    const big = { gatewayStatus: '00', data: Array.from({ length: 2_000 }, (_, i) => ({ id: i, phone_number: '08031234567' })) };
    const kept = keep(answers, big);
    expect(kept.body.startsWith('{"gatewayStatus":"00","data":[{"id":0,"phone_number":"[phone …67]"}')).toBe(true);
    expect(kept.body).not.toContain('08031234567');
  });
});
