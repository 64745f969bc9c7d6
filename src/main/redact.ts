/**
 * Tokens must never reach logs, errors or files. Known tokens are registered here when they are
 * loaded and removed from any text that leaves the main side; `Bearer …` is always masked.
 *
 * A token is caught in every form a message, a URL or a header may carry it: as typed, in any
 * letter case; URL-encoded (encodeURIComponent, `+` for spaces, either case of hex digits); with
 * JSON escapes; and inside base64, standard or URL-safe, at any byte offset, which covers the
 * base64 of the token alone, of `Bearer <token>` and of the `user:token` a Basic header holds.
 */
const REDACTED = '[redacted]';

/** Shortest token whose base64 forms are looked for: shorter ones would match ordinary words. */
const MIN_BASE64_TOKEN = 8;

interface SecretPatterns {
  /** The token as typed (any case), URL-encoded, JSON-escaped. */
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
  return new RegExp([...new Set(texts)].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|'), 'gi');
}

function patternsFor(secret: string): SecretPatterns {
  const encoded = encodeURIComponent(secret);
  return {
    plain: anyOf([secret, encoded, encoded.replace(/%20/g, '+'), JSON.stringify(secret).slice(1, -1)]),
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
