/**
 * Cells that hold characters a person cannot see but a screen obeys (docs/imports.md, *Hidden
 * characters*): ESC and the other controls, a carriage return inside a value, the bidirectional
 * overrides, zero-width characters. Such a cell could make a terminal or a window show something
 * else than what is bought, so its row is invalid, with the row and column named — never kept as it
 * is, never quietly cleaned. A tab or a line break inside a text cell (Alt+Enter in a spreadsheet, a
 * line break inside a quoted CSV cell) is whitespace, read as one space; the zero-width joiner and
 * the variation selectors that glue emoji together are kept.
 */
import { hiddenCharacterName, hiddenInText } from '../../shared/visibleText';
import { fieldLabel, fieldsFor, type ColumnMapping, type FieldKey, type ImportKind } from './columnMapping';
import { columnLetters, type CellValue } from './sheetTable';

/** What a text cell holds that a person cannot see (`hiddenInText`, the one reading of it, for a typed field too); null when nothing. */
export const hiddenInCell = hiddenInText;

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
  return `the ${label} cell (column ${columnLetters(column + 1)}) ${holdsHidden(character)}; retype the cell`;
}

/** The same refusal of a field typed in a form or on the command line: `the Network holds a hidden character (ESC, U+001B) …; type it again`. */
export function hiddenFieldText(field: FieldKey, character: string): string {
  return `the ${fieldLabel(field)} ${holdsHidden(character)}; type it again`;
}

function holdsHidden(character: string): string {
  return `holds a hidden character (${hiddenCharacterName(character)}) that can change what a screen shows`;
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
