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
 * A cell can also start inside a CSV field: a spreadsheet that splits the file on `;` (Excel and
 * LibreOffice do where the decimal mark is a comma, and a user may choose it) starts a new cell
 * after every `;`, and one that does not honour the quotes around a field ends the record at a
 * line break. A trigger there, after any spaces or quotes, gets a quote before it as well.
 */
const INNER_TRIGGER = /([;\r\n][\s"]*)([=+\-@])/g;

/** The text of a CSV cell, safe whether the file is opened with `,` or `;` as the separator. */
export function neutralizeCsvText(text: string): string {
  return neutralizeFormula(text).replace(INNER_TRIGGER, "$1'$2");
}
