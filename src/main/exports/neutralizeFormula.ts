/**
 * Spreadsheet formula injection (CSV/formula injection): a text cell that starts with `=`, `+`,
 * `-`, `@`, a tab or a carriage return can be evaluated by Excel, LibreOffice or Google Sheets
 * as a formula (`=HYPERLINK(...)`, `@SUM(...)`, `+cmd|...`). Such text is prefixed with a single
 * quote, so every spreadsheet shows it as the text it is and nothing evaluates it.
 */
const TRIGGERS = new Set(['=', '+', '-', '@', '\t', '\r']);

export function needsNeutralizing(text: string): boolean {
  return text.length > 0 && TRIGGERS.has(text[0]);
}

/** `=1+1` → `'=1+1`; any other text unchanged. */
export function neutralizeFormula(text: string): string {
  return needsNeutralizing(text) ? `'${text}` : text;
}
