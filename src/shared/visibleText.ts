/**
 * Characters a person cannot see but a screen obeys: C0 and C1 controls (ESC starts the sequences
 * that move a terminal's cursor, clear a line, hide text or make a link; CR goes back to the start
 * of the line), DEL, the bidirectional controls that reorder what follows them, zero-width and other
 * invisible format characters, the line and paragraph separators, and every other character Unicode
 * says to show as nothing. Text that came from a file, the service or the team database is shown
 * with them made visible (`\x1b`, `\r`, `\u202e`), so it can only ever read as itself.
 */
export const HIDDEN_CHARACTER = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u;

const HIDDEN_CHARACTERS = new RegExp(HIDDEN_CHARACTER.source, 'gu');

const SHORT: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** One hidden character as it is shown: `\r`, `\x1b`, `\u202e`, `\u{e0041}`. */
export function visibleCharacter(ch: string): string {
  const short = SHORT[ch];
  if (short) return short;
  const code = ch.codePointAt(0) ?? 0;
  const hex = code.toString(16);
  if (code < 0x100) return `\\x${hex.padStart(2, '0')}`;
  if (code < 0x10000) return `\\u${hex.padStart(4, '0')}`;
  return `\\u{${hex}}`;
}

/** `text` with every hidden character shown as its escape; `keep` says which may stay as they are. */
export function visibleText(text: string, keep?: (ch: string) => boolean): string {
  if (!HIDDEN_CHARACTER.test(text)) return text;
  return text.replace(HIDDEN_CHARACTERS, (ch) => (keep?.(ch) ? ch : visibleCharacter(ch)));
}

/**
 * The invisible glue of emoji: the zero-width joiner (👩‍👧) and the variation selectors (❤️).
 * They reorder and hide nothing; a contact's name may hold them, and the window keeps them.
 */
export function isEmojiGlue(ch: string): boolean {
  const code = ch.codePointAt(0) ?? 0;
  return code === 0x200d || (code >= 0xfe00 && code <= 0xfe0f) || (code >= 0xe0100 && code <= 0xe01ef);
}

const NAMES: Readonly<Record<number, string>> = {
  0x00: 'NUL',
  0x07: 'bell',
  0x08: 'backspace',
  0x09: 'tab',
  0x0a: 'line break',
  0x0b: 'vertical tab',
  0x0c: 'form feed',
  0x0d: 'carriage return',
  0x1b: 'ESC',
  0x7f: 'DEL',
  0x9b: 'CSI',
  0x9d: 'OSC',
  0xad: 'soft hyphen',
  0x061c: 'Arabic letter mark',
  0x200b: 'zero-width space',
  0x200c: 'zero-width non-joiner',
  0x200e: 'left-to-right mark',
  0x200f: 'right-to-left mark',
  0x202a: 'left-to-right embedding',
  0x202b: 'right-to-left embedding',
  0x202c: 'pop directional formatting',
  0x202d: 'left-to-right override',
  0x202e: 'right-to-left override',
  0x2028: 'line separator',
  0x2029: 'paragraph separator',
  0x2060: 'word joiner',
  0x2066: 'left-to-right isolate',
  0x2067: 'right-to-left isolate',
  0x2068: 'first strong isolate',
  0x2069: 'pop directional isolate',
  0xfeff: 'zero-width no-break space',
};

/** A hidden character named for a person: `ESC, U+001B`, `right-to-left override, U+202E`, `U+E0041`. */
export function hiddenCharacterName(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  const u = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  const name = NAMES[code];
  return name ? `${name}, ${u}` : u;
}

const HIDDEN_IN_TEXT = new RegExp(HIDDEN_CHARACTER.source, 'gu');
const WHITESPACE_BREAKS = /\r\n|[\t\n\u2028\u2029]/g;

/** What a piece of text someone gave holds that a person cannot see: the text to read instead (its breaks as spaces), or the character that refuses it. */
export type HiddenInText = { ok: true; text: string } | { ok: false; character: string };

/**
 * What a value read from a spreadsheet's cell, or typed in a form or on the command line, holds
 * that a person cannot see; null when nothing (the common case, one regular-expression test). A
 * tab or a line break is whitespace (read as one space); the glue of emoji is kept; any other
 * hidden character refuses it (docs/imports.md, *Hidden characters*).
 */
export function hiddenInText(text: string): HiddenInText | null {
  if (!HIDDEN_CHARACTER.test(text)) return null;
  for (const m of text.matchAll(HIDDEN_IN_TEXT)) {
    const ch = m[0];
    if (ch === '\t' || ch === '\n' || ch === '\u2028' || ch === '\u2029' || isEmojiGlue(ch)) continue;
    if (ch === '\r' && text[(m.index ?? 0) + 1] === '\n') continue;
    return { ok: false, character: ch };
  }
  return { ok: true, text: text.replace(WHITESPACE_BREAKS, ' ') };
}
