/**
 * Tokens must never reach logs, errors or files. Known tokens are registered here when they are
 * loaded and removed from any text that leaves the main side; `Bearer …` is always masked.
 *
 * A token is caught in every form a message, a URL, a header or a service echoing it back may
 * carry it (issue 23, item 16), character by character, so forms may even be mixed:
 * - as typed, in any letter case;
 * - %-encoded (any character, either case of hex digits, `+` for a space, encoded twice: `%25…`);
 * - hex: its UTF-8 bytes as hex digits (`4c76…`, `\x4c`, `0x4c`);
 * - HTML entities: `&#76;`, `&#x4C;`, named ones (`&amp;`, `&quot;`, `&plus;`, `&sol;`…), escaped twice (`&amp;#43;`);
 * - JSON or JavaScript escapes: `\"`, `\\`, `\/`, `\u00f1`, `\x2b`, escaped again inside another string;
 * - spaced out: whitespace (or invisible characters) between its characters;
 * - cut short: its first 16 characters or more (a service that echoes part of it);
 * - inside base64, standard or URL-safe, at any byte offset, which covers the base64 of the token
 *   alone, of `Bearer <token>` and of the `user:token` a Basic header holds.
 */
const REDACTED = '[redacted]';

/** Shortest token whose base64 forms are looked for: shorter ones would match ordinary words. */
const MIN_BASE64_TOKEN = 8;

/** A token echoed cut short is still caught from this many of its first characters on. */
const MIN_PREFIX = 16;

interface SecretPatterns {
  /** The token (or its first MIN_PREFIX characters or more) in any of the forms above but base64. */
  plain: RegExp;
  /** The token's characters in base64 (null for a short token). */
  base64: RegExp | null;
}

const known = new Map<string, SecretPatterns>();

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The base64 characters that depend on the token's bytes alone, when it starts at each of the
 * three byte offsets a base64 group can have: whatever precedes or follows it, an encoding of a
 * text containing the token contains one of these.
 */
function base64Cores(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const cores: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const core = encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
    cores.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return cores;
}

/** One regular expression matching any of `texts`, longest first (so none is cut short by a shorter one inside it). */
function anyOf(texts: Iterable<string>): RegExp {
  return new RegExp(
    [...new Set(texts)]
      .sort((a, b) => b.length - a.length)
      .map(escapeRegExp)
      .join('|'),
    'gi',
  );
}

/** HTML's named entities for characters a token may hold (numeric ones cover every character). */
const NAMED_ENTITIES: Record<string, string[]> = {
  '&': ['amp'],
  '<': ['lt'],
  '>': ['gt'],
  '"': ['quot'],
  "'": ['apos'],
  ' ': ['nbsp'],
  '+': ['plus'],
  '/': ['sol'],
  '=': ['equals'],
  _: ['lowbar', 'UnderBar'],
  '.': ['period'],
  ',': ['comma'],
  ':': ['colon'],
  ';': ['semi'],
  '!': ['excl'],
  '?': ['quest'],
  '#': ['num'],
  $: ['dollar'],
  '%': ['percnt'],
  '*': ['ast', 'midast'],
  '(': ['lpar'],
  ')': ['rpar'],
  '[': ['lsqb', 'lbrack'],
  ']': ['rsqb', 'rbrack'],
  '{': ['lcub', 'lbrace'],
  '}': ['rcub', 'rbrace'],
  '|': ['verbar', 'vert'],
  '\\': ['bsol'],
  '^': ['Hat'],
  '`': ['grave'],
  '@': ['commat'],
  '~': ['tilde'],
  '-': ['hyphen', 'dash'],
};

/** Between two characters of a token spaced out: a little whitespace or invisible characters. */
const SPACING = '[\\s\\u00a0\\u200b-\\u200d\\u2060\\ufeff]{0,3}';

const hex2 = (n: number) => n.toString(16).padStart(2, '0');
const hex4 = (n: number) => n.toString(16).padStart(4, '0');

/** Every way one character of the token can be written (as regular-expression sources; the pattern is case-insensitive). */
function characterForms(ch: string): string[] {
  const code = ch.codePointAt(0) ?? 0;
  const bytes = [...Buffer.from(ch, 'utf8')];
  const units = code > 0xffff ? [ch.charCodeAt(0), ch.charCodeAt(1)] : [code];
  const amp = '&(?:amp;)*';
  const forms = [
    escapeRegExp(ch),
    // %-encoded (also twice, %25…), byte by byte; a space may be `+`.
    bytes.map((b) => `%(?:25)*${hex2(b)}`).join(''),
    // Hex: the bytes as two hex digits each, bare or as \x / 0x.
    bytes.map((b) => `(?:\\\\x|0x)?${hex2(b)}`).join(''),
    // HTML numeric entities, decimal or hex, semicolon optional, escaped again (&amp;#…).
    `${amp}#0*${code};?`,
    `${amp}#x0*${code.toString(16)};?`,
    // JSON / JavaScript escapes, however many backslashes a string inside a string adds.
    units.map((u) => `\\\\+u${hex4(u)}`).join(''),
    ...(code < 0x100 ? [`\\\\+x${hex2(code)}`] : []),
    ...(NAMED_ENTITIES[ch] ?? []).map((name) => `${amp}${name};`),
  ];
  if (ch === ' ') forms.push('\\+');
  if (ch === '"' || ch === '/' || ch === "'" || ch === '\\') forms.push(`\\\\+${escapeRegExp(ch)}`);
  return forms;
}

/**
 * The token, character by character in any of its forms, spacing allowed between them: first the
 * whole token (every character required, so each may take whichever form fits), else its first
 * MIN_PREFIX characters and as many more as follow (a token echoed cut short).
 */
function plainPattern(secret: string): RegExp {
  const chars = [...secret].map((ch) => {
    const forms = characterForms(ch);
    // A character whose other forms start with itself (`&` of `&amp;`, `\` of `\u…`) tries them first.
    return `(?:${['&', '\\', '%'].includes(ch) ? [...forms.slice(1), forms[0]].join('|') : forms.join('|')})`;
  });
  const whole = chars.join(SPACING);
  if (chars.length <= MIN_PREFIX) return new RegExp(whole, 'gi');
  let tail = '';
  for (let i = chars.length - 1; i >= MIN_PREFIX; i--) tail = `(?:${SPACING}${chars[i]}${tail})?`;
  return new RegExp(`${whole}|${chars.slice(0, MIN_PREFIX).join(SPACING)}${tail}`, 'gi');
}

function patternsFor(secret: string): SecretPatterns {
  return {
    plain: plainPattern(secret),
    base64: Buffer.byteLength(secret) >= MIN_BASE64_TOKEN ? anyOf(base64Cores(secret)) : null,
  };
}

function isBase64Char(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47 || c === 45 || c === 95;
}

/** Replaces the whole base64 word around each match, so no neighbouring character leaks the token's bits. */
function redactBase64(text: string, pattern: RegExp): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    let start = m.index;
    let end = start + m[0].length;
    if (start < last) continue;
    while (start > last && isBase64Char(text.charCodeAt(start - 1))) start--;
    while (end < text.length && isBase64Char(text.charCodeAt(end))) end++;
    for (let pad = 0; pad < 2 && text.charCodeAt(end) === 61; pad++) end++;
    out += text.slice(last, start) + REDACTED;
    last = end;
  }
  return last === 0 ? text : out + text.slice(last);
}

export function registerSecret(secret: string): void {
  if (secret.length >= 4 && !known.has(secret)) known.set(secret, patternsFor(secret));
}

export function redactSecrets(text: string): string {
  let out = text.replace(/Bearer\s+[^\s"',]+/gi, `Bearer ${REDACTED}`);
  for (const { plain, base64 } of known.values()) {
    out = out.replace(plain, REDACTED);
    if (base64) out = redactBase64(out, base64);
  }
  return out;
}
