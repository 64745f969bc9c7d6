/** The spreadsheet exporter: import from here. */
export { writeTableXlsx, writeTableCsv, sheetName, type ExportSheet, type ExportOptions, type ExportResult, type ExportRows } from './writeTable';
export { neutralizeFormula, neutralizeCsvText, needsNeutralizing } from './neutralizeFormula';
export { NAIRA_FORMAT, DATETIME_FORMAT, DATE_FORMAT, toCellValue, type ExportColumn, type ExportColumnKind, type CellValue } from './exportColumns';
