import { beforeEach, describe, expect, it } from 'vitest';
import { redactionWith } from './freshRedaction';

/**
 * Issue 37, item 6: forms of the token the redaction used to let through — a part of it other than
 * its first characters (its last 16, a run from the middle), its UTF-16 hex, base64 of its base64,
 * and the token broken up by soft hyphens, zero-width characters or terminal colour codes, or
 * written in full-width letters. Each is the attack: a message or log line holding the token so,
 * which must come out with the token gone and the text around it kept.
 */
describe('redaction catches the token cut, re-encoded or broken up', () => {
  // 40 characters, as a live API token; + / = and _ change under base64url, %- and HTML encoding.
  const token = 'Lv3_q+Z9/wXk=nT7pR2aB8cD4eF6gH1jK5mN0sQ9';
  const chars = [...token];
  let redactSecrets: (text: string) => string;
  beforeEach(async () => {
    redactSecrets = await redactionWith(token);
  });
  const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
  const b64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
  const utf16le = Buffer.from(token, 'utf16le');
  const fullWidth = (text: string) => text.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
  const colours = chars.map((c, i) => (i === 0 ? c : `\x1b[${31 + (i % 6)}m${c}`)).join('');

  const forms: [string, string][] = [
    ['its last 16 characters', token.slice(-16)],
    ['its last 17 characters', token.slice(-17)],
    ['a 20-character run from the middle', token.slice(10, 30)],
    ['a 16-character run from the middle', token.slice(13, 29)],
    ['its last 16 characters, %-encoded', encodeURIComponent(token.slice(-16))],
    ['its last 16 characters in UTF-16 hex', Buffer.from(token.slice(-16), 'utf16le').swap16().toString('hex')],
    ['UTF-16 hex (big-endian: 004c0076…)', Buffer.from(utf16le).swap16().toString('hex')],
    ['UTF-16 hex (little-endian: 4c007600…)', utf16le.toString('hex')],
    ['UTF-16 hex, upper case', Buffer.from(utf16le).swap16().toString('hex').toUpperCase()],
    ['UTF-16 hex, spaced (0x004c 0x0076 …)', [...token].map((c) => `0x${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(' ')],
    ['hex of its bytes', Buffer.from(token).toString('hex')],
    ['base64', b64(token)],
    ['base64 of its base64', b64(b64(token))],
    ['base64url of its base64', b64url(b64(token))],
    ['base64 of a Basic header (base64 of user:token)', b64(`Authorization: Basic ${b64(`finance:${token}`)}`)],
    ['every character %-encoded', [...Buffer.from(token)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('')],
    ['encodeURIComponent', encodeURIComponent(token)],
    ['a soft hyphen between every character', chars.join('\u00ad')],
    ['zero-width spaces between its characters', chars.join('\u200b')],
    ['zero-width joiners and non-joiners', chars.join('\u200c\u200d')],
    ['word joiners and byte-order marks', chars.map((c, i) => (i === 0 ? c : i % 2 ? `\u2060${c}` : `\ufeff${c}`)).join('')],
    ['full-width letters, digits and signs', fullWidth(token)],
    ['full-width, upper case', fullWidth(token.toUpperCase())],
    ['full-width, with soft hyphens', fullWidth(token).split('').join('\u00ad')],
    ['terminal colour codes between its characters', colours],
    ['colour codes and resets between its characters', chars.map((c, i) => (i === 0 ? c : `\x1b[0m\x1b[1;3${i % 8}m${c}`)).join('')],
    ['colour codes as JSON escapes them (\\u001b[31m)', JSON.stringify(colours).slice(1, -1)],
    ['colour codes as a shell writes them (\\033[31m)', chars.map((c, i) => (i === 0 ? c : `\\033[3${i % 8}m${c}`)).join('')],
    [
      'its last 16 characters, coloured',
      chars
        .slice(-16)
        .map((c, i) => (i === 0 ? c : `\x1b[3${i % 8}m${c}`))
        .join(''),
    ],
  ];

  it.each(forms)('%s', (_what, form) => {
    expect(form).not.toContain(token);
    const line = `The service answered 401: "invalid key ${form}" — check the token`;
    expect(redactSecrets(line)).toBe('The service answered 401: "invalid key [redacted]" — check the token');
  });

  it('a coloured token inside a coloured log line: the colours around it stay, the token goes', () => {
    expect(redactSecrets(`\x1b[31merror:\x1b[0m key \x1b[33m${colours}\x1b[0m refused`)).toBe('\x1b[31merror:\x1b[0m key \x1b[33m[redacted]\x1b[0m refused');
  });

  it('every run of 16 characters, wherever it starts in the token, in a line that goes on', () => {
    for (let start = 0; start + 16 <= token.length; start++) {
      const run = token.slice(start, start + 16);
      expect(redactSecrets(`key: ${run}; page 2`), run).toBe('key: [redacted]; page 2');
    }
  });

  it('two parts of the token in one line are both caught, and the text between them kept', () => {
    expect(redactSecrets(`head ${token.slice(0, 18)} … tail ${token.slice(-18)} end`)).toBe('head [redacted] … tail [redacted] end');
  });

  it('a run shorter than 16 characters, or 16 characters that are not the token’s in a row, are left alone', () => {
    const fifteen = token.slice(12, 27);
    expect(redactSecrets(`key ${fifteen}`)).toBe(`key ${fifteen}`);
    const skipped = token.slice(0, 8) + token.slice(9, 17);
    expect(redactSecrets(`key ${skipped}`)).toBe(`key ${skipped}`);
    const ordinary = 'UTF-16 0048 0065 006c 006c 006f, full-width ＡＢＣ１２３, soft\u00adhyphen, \x1b[1mbold\x1b[0m';
    expect(redactSecrets(ordinary)).toBe(ordinary);
  });
});
