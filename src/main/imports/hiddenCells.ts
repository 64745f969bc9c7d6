/**
 * Cells that hold characters a person cannot see but a screen obeys (docs/imports.md, *Hidden
 * characters*): ESC and the other controls, a carriage return inside a value, the bidirectional
 * overrides, zero-width characters. Such a cell could make a terminal or a window show something
 * else than what is bought, so its row is invalid, with the row and column named — never kept as it
 * is, never quietly cleaned. A tab or a line break inside a text cell (Alt+Enter in a spreadsheet, a
 * line break inside a quoted CSV cell) is whitespace, read as one space; the zero-width joiner and
 * the variation selectors that glue emoji together are kept.
 */
import { HIDDEN_CHARACTER, hiddenCharacterName, isEmojiGlue } from '../../shared/visibleText';
import { fieldLabel, fieldsFor, type ColumnMapping, type FieldKey, type ImportKind } from './columnMapping';
import { columnLetters, type CellValue } from './sheetTable';

const HIDDEN = new RegExp(HIDDEN_CHARACTER.source, 'gu');
const WHITESPACE_BREAKS = /\r\n|[\t\n\u2028\u2029]/g;

/** A cell that holds a hidden character: the text to read instead (its breaks as spaces), or the character that refuses it. */
export type HiddenInCell = { ok: true; text: string } | { ok: false; character: string };

/** What a text cell holds that a person cannot see; null when nothing (the common case, one regular-expression test). */
export function hiddenInCell(text: string): HiddenInCell | null {
  if (!HIDDEN_CHARACTER.test(text)) return null;
  for (const m of text.matchAll(HIDDEN)) {
    const ch = m[0];
    if (ch === '\t' || ch === '\n' || ch === '\u2028' || ch === '\u2029' || isEmojiGlue(ch)) continue;
    if (ch === '\r' && text[(m.index ?? 0) + 1] === '\n') continue;
    return { ok: false, character: ch };
  }
  return { ok: true, text: text.replace(WHITESPACE_BREAKS, ' ') };
}

/** The columns an import of `kind` reads, with their fields, for {@link refuseHiddenCells}. */
export function mappedColumns(mapping: ColumnMapping, kind: ImportKind): { field: FieldKey; column: number }[] {
  const out: { field: FieldKey; column: number }[] = [];
  for (const { key } of fieldsFor(kind)) {
    const column = mapping[key];
    if (column !== null) out.push({ field: key, column });
  }
  return out;
}

/** `the Name cell (column D) holds a hidden character (ESC, U+001B) …` (after `Row N: `). */
export function hiddenCellText(field: FieldKey, column: number, character: string): string {
  return hiddenCellTextFor(fieldLabel(field), column, character);
}

/** The same sentence for a cell named by `label`: a field (`Name`) or a column's quoted heading (`"Data allowance"`). */
export function hiddenCellTextFor(label: string, column: number, character: string): string {
  return `the ${label} cell (column ${columnLetters(column + 1)}) holds a hidden character (${hiddenCharacterName(character)}) that can change what a screen shows; retype the cell`;
}

/**
 * Checks the cells a row is read from: a tab or line break in one becomes a space (the cell is
 * replaced in `cells`); any other hidden character is reported through `refuse` (field and the
 * sentence after `Row N: `). True when the row may be read.
 */
export function refuseHiddenCells(cells: CellValue[], columns: readonly { field: FieldKey; column: number }[], refuse: (field: FieldKey, text: string) => void): boolean {
  let readable = true;
  for (let i = 0; i < columns.length; i++) {
    const { field, column } = columns[i];
    const cell = cells[column];
    if (typeof cell !== 'string') continue;
    const hidden = hiddenInCell(cell);
    if (hidden === null) continue;
    if (hidden.ok) cells[column] = hidden.text;
    else {
      refuse(field, hiddenCellText(field, column, hidden.character));
      readable = false;
    }
  }
  return readable;
}
