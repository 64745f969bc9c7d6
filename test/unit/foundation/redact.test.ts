import { beforeEach, describe, expect, it } from 'vitest';
import { redactionWith } from './freshRedaction';

/**
 * The attack: a token that reaches a message, a log line or CLI output in some form other than
 * as typed. Each form must come out as [redacted], with the text around it kept.
 */
describe('redaction catches the token in every form it can take', () => {
  // Characters that every encoding changes: + / space = and a non-ASCII letter.
  const token = 'Lv3_q+Z9/w Xk=ñT7pR2';
  // Registered in each test, not while the tests are collected (see freshRedaction.ts).
  let redactSecrets: (text: string) => string;
  beforeEach(async () => {
    redactSecrets = await redactionWith(token);
  });
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
    const text = "Row 4: 08031234567 is not valid; base64 dXNlcjpwYXNz is someone else's";
    expect(redactSecrets(text)).toBe(text);
    expect(redactSecrets('Authorization: Bearer abc.def.ghi')).toBe('Authorization: Bearer [redacted]');
  });
});

/**
 * Issue 23, item 16: a service that echoes the token back encoded. The token holds characters that
 * JSON, URLs and HTML all escape (`"`, `\`, `<`, `&`, `/`, `+`, a space, a non-ASCII letter), so
 * every form below differs from the token as typed — none is caught by another form's rule.
 */
describe('redaction catches the token echoed back in other encodings', () => {
  const token = 'Qz7"kP\\m/Ra+ 9<x&W>ñe4Tb8_Lc2';
  // Registered in each test, not while the tests are collected (see freshRedaction.ts).
  let redactSecrets: (text: string) => string;
  beforeEach(async () => {
    redactSecrets = await redactionWith(token);
  });
  const utf8 = [...Buffer.from(token, 'utf8')];
  const pct = (upper: boolean) =>
    utf8
      .map((b) => `%${b.toString(16).padStart(2, '0')}`)
      .map((h) => (upper ? h.toUpperCase() : h))
      .join('');
  const chars = [...token];
  const jsonEscaped = JSON.stringify(token).slice(1, -1);
  const asciiJson = jsonEscaped.replace(/[^\x20-\x7e]|[<>&]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

  const forms: [string, string][] = [
    ['every byte %-encoded (upper-case hex)', pct(true)],
    ['every byte %-encoded (lower-case hex)', pct(false)],
    ['%-encoded twice (%25…)', encodeURIComponent(encodeURIComponent(token))],
    ['hex of its bytes', Buffer.from(token, 'utf8').toString('hex')],
    ['hex of its bytes, upper case', Buffer.from(token, 'utf8').toString('hex').toUpperCase()],
    ['hex as \\x escapes', utf8.map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('')],
    ['HTML decimal entities', chars.map((c) => `&#${c.codePointAt(0)};`).join('')],
    ['HTML hex entities', chars.map((c) => `&#x${c.codePointAt(0)?.toString(16).toUpperCase()};`).join('')],
    ['HTML as a page escapes text (&quot; &lt; &amp; &gt;)', token.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')],
    ['HTML escaped twice (&amp;quot;)', token.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/&/g, '&amp;')],
    ['spaced out', chars.join(' ')],
    ['spaced out with tabs and line breaks', chars.map((c, i) => (i === 0 ? c : `${i % 3 === 0 ? '\n' : '\t'}${c}`)).join('')],
    ['JSON-escaped (\\" and \\\\)', jsonEscaped],
    ['JSON with every non-ASCII and <>& as \\u escapes (ensure_ascii, Go)', asciiJson],
    ['JSON with / escaped (\\/)', jsonEscaped.replace(/\//g, '\\/')],
    ['JSON inside a JSON string (escaped twice)', JSON.stringify(jsonEscaped).slice(1, -1)],
    ['its first 16 characters', chars.slice(0, 16).join('')],
    ['its first 20 characters', chars.slice(0, 20).join('')],
    ['its first 16 characters, %-encoded', encodeURIComponent(chars.slice(0, 16).join(''))],
  ];

  it.each(forms)('%s', (_what, form) => {
    // Each form is its own case: the token as typed is not in it.
    expect(form).not.toContain(token);
    const text = `The service answered 401: "invalid key ${form}" — check the token`;
    const out = redactSecrets(text);
    expect(out).toBe('The service answered 401: "invalid key [redacted]" — check the token');
  });

  it('a shorter part than the first 16 characters, or another token, is left alone', () => {
    const fifteen = chars.slice(0, 15).join('');
    expect(redactSecrets(`key ${fifteen}`)).toBe(`key ${fifteen}`);
    expect(redactSecrets('hex 4c6f72656d20697073756d20646f6c6f72 and &#76;&#111; stay')).toBe('hex 4c6f72656d20697073756d20646f6c6f72 and &#76;&#111; stay');
  });
});
