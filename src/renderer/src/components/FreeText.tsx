/**
 * Text someone typed that the window shows as it is — a spreadsheet's name, a desktop's name, a
 * note — made unable to pass for anything else: a bidirectional override or another invisible
 * character is shown as its escape (`\u202e`), and the text is isolated (`<bdi>`), so nothing in it
 * can reorder the words around it. The glue of emoji stays.
 */
import { isEmojiGlue, visibleText } from '../../../shared/visibleText';

/** The text as a string (for labels and notifications), hidden characters shown as escapes. */
export function freeText(text: string): string {
  return visibleText(text, isEmojiGlue);
}

export function FreeText({ text }: { text: string }) {
  return <bdi>{freeText(text)}</bdi>;
}
