/**
 * Text that came from a file or a person, shortened before it goes into a message: a cell can
 * hold 32,767 characters and a hostile file far more, and a message must stay a message.
 */
export const EXCERPT_CHARS = 40;

/**
 * `text` itself when short; otherwise its first characters, an ellipsis and (unless
 * `withLength` is false, e.g. when `text` is itself only the start of something) its length.
 */
export function excerpt(text: string, max = EXCERPT_CHARS, withLength = true): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--; // do not split a surrogate pair
  return withLength ? `${text.slice(0, end)}… (${text.length.toLocaleString('en-US')} characters)` : `${text.slice(0, end)}…`;
}

/** `"a", "b", "c"`: at most `maxItems` items, each an excerpt, about `maxChars` in all, then `and N more`. */
export function quotedList(items: readonly string[], maxItems = 10, maxChars = 300): string {
  const shown: string[] = [];
  let length = 0;
  for (const item of items) {
    if (shown.length === maxItems || (shown.length > 0 && length > maxChars)) break;
    const quoted = `"${excerpt(item)}"`;
    shown.push(quoted);
    length += quoted.length + 2;
  }
  const rest = items.length - shown.length;
  return rest > 0 ? `${shown.join(', ')} and ${rest.toLocaleString('en-US')} more` : shown.join(', ');
}
