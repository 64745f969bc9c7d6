/**
 * Spreadsheet formula injection (CSV/formula injection): a text cell that starts with `=`, `+`,
 * `-`, `@`, a tab or a carriage return can be evaluated by Excel, LibreOffice or Google Sheets
 * as a formula (`=HYPERLINK(...)`, `@SUM(...)`, `+cmd|...`).
 *
 * - In XLSX a string cell is never a formula: the text is written as it is, and a cell that
 *   starts with a trigger gets the quote-prefix style (see `quotePrefixStyle.ts`), so editing it
 *   in Excel keeps it text.
 * - In CSV there are no cell types: such text is prefixed with a single quote, so every
 *   spreadsheet shows it as the text it is and nothing evaluates it (`neutralizeCsvText`).
 */
const TRIGGERS = new Set(['=', '+', '-', '@', '\t', '\r']);

/** The text starts with a character a spreadsheet could read as the start of a formula. */
export function needsNeutralizing(text: string): boolean {
  return text.length > 0 && TRIGGERS.has(text[0]);
}

/** `=1+1` → `'=1+1`; any other text unchanged. */
export function neutralizeFormula(text: string): string {
  return needsNeutralizing(text) ? `'${text}` : text;
}

/**
 * A cell can also start inside a CSV field (OWASP's CSV-injection guidance: guard the field
 * separators too, not only the start of the field). A spreadsheet that splits the file on `;`
 * (Excel and LibreOffice do where the decimal mark is a comma, and a user may choose it), on a
 * tab (a file opened or pasted as tab-separated) or on `,` without honouring the quotes around a
 * field starts a new cell after each of them, and one that does not honour the quotes ends the
 * record at a line break. A trigger there, after any spaces or quotes, gets a quote before it as
 * well. (XLSX cells are never split, so the workbooks need only the start of the text guarded.)
 */
const INNER_TRIGGER = /([,;\t\r\n][\s"]*)([=+\-@])/g;

/** The text of a CSV cell, safe whether the file is opened with `,`, `;` or a tab as the separator. */
export function neutralizeCsvText(text: string): string {
  return neutralizeFormula(text).replace(INNER_TRIGGER, "$1'$2");
}
