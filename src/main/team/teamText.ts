/**
 * Text the team database keeps only when it reads as written (team schema 7, issue 37): no C0
 * control character (a line break only in a note), no DEL or C1 control, no invisible formatting
 * mark — the set of `vendesk.unseen_character` in schema/007, here in vendesk's code. The audit rows
 * this desktop records about itself (a reconcile run's file name, a resolution's note) are made to
 * fit before they are sent (`withUnseenShown`), so its outbox never holds a row the database
 * would refuse for ever; what a person types elsewhere is refused with the database's sentence.
 */

// The characters themselves are the point of this pattern.
// eslint-disable-next-line no-control-regex
const UNSEEN = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb\u{e0000}-\u{e007f}]/gu;

/** The text with each such character written as its code (`\u{1b}`), line breaks kept where `lineBreaks` allows them. */
export function withUnseenShown(text: string, options: { lineBreaks?: boolean } = {}): string {
  return text.replace(UNSEEN, (c) => (options.lineBreaks && c === '\n' ? c : `\\u{${c.codePointAt(0)!.toString(16)}}`));
}

/** A JSON-like value with every string in it (keys too) passed through `withUnseenShown`. */
export function withUnseenShownIn<T>(value: T): T {
  if (typeof value === 'string') return withUnseenShown(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => withUnseenShownIn(v)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [withUnseenShown(k), withUnseenShownIn(v)])) as T;
  return value;
}
