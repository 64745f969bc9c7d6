/**
 * Per-recipient placeholders in a message text (docs/messaging.md, *Personalised messages*):
 * `{Name}`, `{Data allowance}` — any column of the recipient's sheet, by its heading. The heading
 * matches whatever its case and however many spaces it has (`{data  ALLOWANCE}` is the column
 * "Data allowance"); failing that, a heading that differs only in punctuation (`{Phone No}` for
 * "Phone No."). A literal brace is written `\{` or `\}`. Everything else is kept as written.
 *
 * Refused, before anything is filled: a `{` that is never closed, a `}` with no `{`, `{}`, a brace
 * inside a placeholder (`{{name}}`, the service's template style, is refused rather than sent as
 * "{name}"), and a character a screen hides or obeys (ESC, a bidirectional override…) in the text.
 *
 * Pure: the window's preview, the main side's job and the tests all fill through
 * {@link fillPlaceholders} (one rule).
 */
import { excerpt } from './excerpt';
import { HIDDEN_CHARACTER, hiddenCharacterName, isEmojiGlue } from './visibleText';

/** A piece of a message text: words kept as they are, or a placeholder filled per recipient. */
export type MessagePart = { kind: 'text'; text: string } | { kind: 'placeholder'; name: string };

export interface TextProblem {
  code: 'unclosed' | 'stray_close' | 'empty' | 'nested' | 'too_long' | 'hidden';
  message: string;
}

export type ParsedMessageText = { ok: true; parts: MessagePart[]; placeholders: string[] } | { ok: false; problems: TextProblem[] };

/** The longest heading a placeholder may name. */
export const PLACEHOLDER_MAX_CHARS = 100;

/** Line breaks and tabs may be typed in a message; every other hidden character is refused. */
const TYPED_WHITESPACE = new Set(['\n', '\r', '\t']);

/** How a placeholder and a heading are compared: trimmed, spaces collapsed, any case. */
export function headingKey(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** The looser comparison: letters and digits only (`Phone No.` and `phone no` are the same). */
function compactKey(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/** `{Name}` as it is written in a message. */
export function placeholderText(name: string): string {
  return `{${name}}`;
}

/** Where `at` is, for a person: `at character 12`. */
function where(at: number): string {
  return `at character ${at + 1}`;
}

/** Reads a message text into its words and placeholders, or says what is wrong with it. */
export function parseMessageText(text: string): ParsedMessageText {
  const problems: TextProblem[] = [];
  const parts: MessagePart[] = [];
  const placeholders: string[] = [];
  const seen = new Set<string>();
  let words = '';
  const chars = [...text];
  let offset = 0;
  for (const ch of chars) {
    if (HIDDEN_CHARACTER.test(ch) && !TYPED_WHITESPACE.has(ch) && !isEmojiGlue(ch)) {
      problems.push({
        code: 'hidden',
        message: `The text holds a hidden character (${hiddenCharacterName(ch)}) ${where(offset)} that can change what a screen shows; type the text again.`,
      });
      break;
    }
    offset++;
  }
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    if (ch === '\\' && (chars[i + 1] === '{' || chars[i + 1] === '}')) {
      words += chars[i + 1];
      i++;
      continue;
    }
    if (ch === '}') {
      problems.push({ code: 'stray_close', message: `A "}" ${where(i)} closes no placeholder; write \\} for a brace in the message.` });
      continue;
    }
    if (ch !== '{') {
      words += ch;
      continue;
    }
    let end = i + 1;
    let inner = '';
    let nested = false;
    while (end < chars.length && chars[end] !== '}') {
      if (chars[end] === '{') nested = true;
      inner += chars[end];
      end++;
    }
    if (end >= chars.length) {
      problems.push({
        code: 'unclosed',
        message: `The placeholder "${excerpt(chars.slice(i).join(''))}" ${where(i)} is not closed with "}"; close it, or write \\{ for a brace in the message.`,
      });
      break;
    }
    if (nested) {
      // Its other closing braces are part of it: `{{name}}` is one mistake.
      while (chars[end + 1] === '}') end++;
      const written = chars.slice(i, end + 1).join('');
      const plain = inner.replace(/[{}]/g, '').trim();
      problems.push({
        code: 'nested',
        message: `"${excerpt(written)}" ${where(i)} is not a placeholder: write one pair of braces around a column's heading, like {${excerpt(plain || 'Name')}}.`,
      });
      i = end;
      continue;
    }
    const name = inner.trim().replace(/\s+/g, ' ');
    if (name === '') {
      problems.push({ code: 'empty', message: `"{}" ${where(i)} names no column; write the column's heading inside the braces, like {Name}.` });
    } else if ([...name].length > PLACEHOLDER_MAX_CHARS) {
      problems.push({ code: 'too_long', message: `The placeholder ${where(i)} is longer than ${PLACEHOLDER_MAX_CHARS} characters; a placeholder is a column's heading.` });
    } else {
      if (words) parts.push({ kind: 'text', text: words });
      words = '';
      parts.push({ kind: 'placeholder', name });
      const key = headingKey(name);
      if (!seen.has(key)) {
        seen.add(key);
        placeholders.push(name);
      }
    }
    i = end;
  }
  if (problems.length > 0) return { ok: false, problems };
  if (words) parts.push({ kind: 'text', text: words });
  return { ok: true, parts, placeholders };
}

/** Which of `headings` a placeholder names: its index, several (the same heading twice), or none. */
export type ColumnMatch = { kind: 'column'; index: number } | { kind: 'ambiguous'; indexes: number[] } | { kind: 'none' };

export function columnFor(placeholder: string, headings: readonly string[]): ColumnMatch {
  for (const keyOf of [headingKey, compactKey]) {
    const wanted = keyOf(placeholder);
    if (wanted === '') continue;
    const indexes: number[] = [];
    headings.forEach((h, i) => {
      if (keyOf(h) === wanted) indexes.push(i);
    });
    if (indexes.length === 1) return { kind: 'column', index: indexes[0] };
    if (indexes.length > 1) return { kind: 'ambiguous', indexes };
  }
  return { kind: 'none' };
}

/** Adds a placeholder's name to `list` unless it is there already (in any spelling of its heading). */
function addOnce(list: string[], name: string): void {
  if (!list.some((n) => headingKey(n) === headingKey(name))) list.push(name);
}

export type FillResult =
  | { ok: true; text: string }
  | {
      ok: false;
      /** What is wrong with the text itself. */
      problems: TextProblem[];
      /** Placeholders no heading of the row matches (or two do). */
      unknown: string[];
      /** Placeholders whose value is empty in this row. */
      empty: string[];
    };

/**
 * The message one recipient receives: each placeholder of `template` replaced by the value of the
 * column it names in `row` (heading → value), as plain text — a value is never read for
 * placeholders itself. Refused when the text is not valid, a placeholder names no column, or a
 * value is empty (nothing is ever sent half-filled).
 */
export function fillPlaceholders(template: string | ParsedMessageText, row: Readonly<Record<string, string>>): FillResult {
  const parsed = typeof template === 'string' ? parseMessageText(template) : template;
  if (!parsed.ok) return { ok: false, problems: parsed.problems, unknown: [], empty: [] };
  const headings = Object.keys(row);
  const unknown: string[] = [];
  const empty: string[] = [];
  let text = '';
  for (const part of parsed.parts) {
    if (part.kind === 'text') {
      text += part.text;
      continue;
    }
    const match = columnFor(part.name, headings);
    if (match.kind !== 'column') {
      addOnce(unknown, part.name);
      continue;
    }
    const value = row[headings[match.index]].trim();
    if (value === '') {
      addOnce(empty, part.name);
      continue;
    }
    text += value;
  }
  if (unknown.length > 0 || empty.length > 0) return { ok: false, problems: [], unknown, empty };
  return { ok: true, text };
}
