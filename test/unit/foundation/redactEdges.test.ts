import { beforeEach, describe, expect, it } from 'vitest';
import { redactionWith } from './freshRedaction';

/**
 * More attacks on the redaction of the token (redact.test.ts has the main forms): characters
 * outside the Basic Multilingual Plane, escapes a JavaScript string adds, HTML's named entities,
 * base64 padding, and the limits that keep ordinary text readable. Tokens are registered in each
 * test (see freshRedaction.ts).
 */
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

describe('redaction of less common forms of the token', () => {
  // An emoji (two UTF-16 units), an apostrophe, a plus, a slash and a space.
  const token = "Rk9'pz/W+ 4m🙂Qe7vNs";
  let redactSecrets: (text: string) => string;
  beforeEach(async () => {
    redactSecrets = await redactionWith(token);
  });
  const chars = [...token];

  it.each([
    ['JSON with every non-ASCII character as \\u escapes (the emoji as a surrogate pair)', token.replace('🙂', '\\ud83d\\ude42')],
    ["a JavaScript string's \\' for the apostrophe", token.replace("'", "\\'")],
    ['every character as \\x escaped twice (\\\\x41)', chars.map((c) => (c === '🙂' ? c : `\\\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)).join('')],
    ['HTML named entities for + / and the apostrophe', token.replace('+', '&plus;').replace('/', '&sol;').replace("'", '&apos;')],
    ['form encoding, a space as +', encodeURIComponent(token).replace('%20', '+')],
  ])('%s', (_what, form) => {
    expect(form).not.toContain(token);
    expect(redactSecrets(`echo: ${form} (end)`)).toBe('echo: [redacted] (end)');
  });

  it('takes the base64 padding with the word, at most two = signs', () => {
    // The token is 22 bytes: its base64 ends with ==.
    const encoded = b64(token);
    expect(encoded.endsWith('==')).toBe(true);
    expect(redactSecrets(`[${encoded}]`)).toBe('[[redacted]]');
    expect(redactSecrets(`[${encoded}=]`)).toBe('[[redacted]=]');
    expect(redactSecrets(`x=${encoded}; y=2`)).toBe('x=[redacted]; y=2');
  });

  it('redacts each of two copies, and keeps the text between them', () => {
    expect(redactSecrets(`${b64(token)} and ${b64(token)}`)).toBe('[redacted] and [redacted]');
    expect(redactSecrets(`${token}-${token}`)).toBe('[redacted]-[redacted]');
  });

  it('masks a Bearer value however many spaces precede it', () => {
    expect(redactSecrets('Authorization: Bearer    abc.def')).toBe('Authorization: Bearer [redacted]');
    expect(redactSecrets('bearer\tabc.def, next')).toBe('Bearer [redacted], next');
  });
});

describe('what redaction leaves alone', () => {
  it('a short token is caught as typed, but its base64 (an ordinary-looking word) is left', async () => {
    const redactSecrets = await redactionWith('Zq7#kp'); // 6 bytes: below the 8 whose base64 is looked for
    expect(redactSecrets('key Zq7#kp here')).toBe('key [redacted] here');
    expect(redactSecrets(`word ${b64('Zq7#kp')} stays`)).toBe(`word ${b64('Zq7#kp')} stays`);
  });

  it('a token of 8 bytes has its base64 caught', async () => {
    const redactSecrets = await redactionWith('Wx4$Lm9q');
    expect(redactSecrets(`basic ${b64('Wx4$Lm9q')}`)).toBe('basic [redacted]');
  });

  it('a token shorter than 4 characters is not registered (it would hide ordinary words)', async () => {
    const redactSecrets = await redactionWith('abc');
    expect(redactSecrets('abc is fine')).toBe('abc is fine');
  });

  it('a 16-character token is caught whole, and a part of it is not', async () => {
    const sixteen = 'T0k3nSixteen#Chr';
    const redactSecrets = await redactionWith(sixteen);
    expect(redactSecrets(`x ${sixteen} y`)).toBe('x [redacted] y');
    expect(redactSecrets(`x ${sixteen.slice(0, 15)} y`)).toBe(`x ${sixteen.slice(0, 15)} y`);
  });
});
