import { describe, expect, it } from 'vitest';
import { redactSecrets, registerSecret } from '../../../src/main/redact';

/**
 * The attack: a token that reaches a message, a log line or CLI output in some form other than
 * as typed. Each form must come out as [redacted], with the text around it kept.
 */
describe('redaction catches the token in every form it can take', () => {
  // Characters that every encoding changes: + / space = and a non-ASCII letter.
  const token = 'Lv3_q+Z9/w Xk=ñT7pR2';
  registerSecret(token);
  const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
  const b64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

  const forms: [string, string][] = [
    ['as typed', token],
    ['upper case', token.toUpperCase()],
    ['lower case', token.toLowerCase()],
    ['encodeURIComponent', encodeURIComponent(token)],
    ['encodeURIComponent, lower-case hex', encodeURIComponent(token).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())],
    ['form encoding (+ for spaces)', encodeURIComponent(token).replace(/%20/g, '+')],
    ['JSON-escaped', JSON.stringify(token).slice(1, -1)],
    ['base64', b64(token)],
    ['base64url', b64url(token)],
    ['base64 of "Bearer <token>"', b64(`Bearer ${token}`)],
    ['base64url of "Bearer <token>"', b64url(`Bearer ${token}`)],
    ['base64 of "user:<token>" (a Basic header)', b64(`user:${token}`)],
    ['base64 of "apiuser:<token>"', b64(`apiuser:${token}`)],
    ['base64 of "finance-team:<token>"', b64(`finance-team:${token}`)],
  ];

  it.each(forms)('%s', (_what, form) => {
    const text = `request to https://vend.example/api?key=${form}&x=1 failed (Authorization: Basic ${form}) — retry`;
    const out = redactSecrets(text);
    expect(out).not.toContain(form);
    expect(out).toContain('[redacted]');
    expect(out).toMatch(/^request to https:\/\/vend\.example\/api\?key=/);
    expect(out).toMatch(/&x=1 failed \(Authorization: Basic .*\) — retry$/);
  });

  it('no part of a base64 form longer than three characters survives, at any offset', () => {
    for (const prefix of ['', 'a', 'ab', 'abc', 'user:', 'Bearer ']) {
      const encoded = b64(`${prefix}${token}`);
      const out = redactSecrets(`[${encoded}]`);
      expect(out).toBe('[[redacted]]');
    }
  });

  it('leaves text without the token alone, and still masks any Bearer value', () => {
    const text = 'Row 4: 08031234567 is not valid; base64 dXNlcjpwYXNz is someone else\'s';
    expect(redactSecrets(text)).toBe(text);
    expect(redactSecrets('Authorization: Bearer abc.def.ghi')).toBe('Authorization: Bearer [redacted]');
  });
});
