/** The spreadsheet importer every part of vendesk uses (bulk purchases, contacts, vendor logs). */
export { ImportError, isImportError, DEFAULT_MAX_BYTES, DEFAULT_MAX_ROWS, type ImportErrorCode } from './importError';
export { inspectSpreadsheet, type SpreadsheetFormat, type SpreadsheetInfo } from './inspectSpreadsheet';
export { readSpreadsheet, firstSheetWithTable, readFirstTable } from './readSpreadsheet';
export { TEMPLATES, TEMPLATE_KINDS, writeTemplate, noHeaderForKind, type TemplateKind } from './templates';
export type { CellValue, SheetRow, SheetTable, ReadSpreadsheetOptions } from './sheetTable';
export { detectEncoding, type TextEncodingName } from './detectEncoding';
export { detectDelimiter, type CsvDelimiter } from './readCsv';
export {
  detectMapping,
  headersKey,
  requiredFields,
  missingFields,
  assertMappingComplete,
  fieldsFor,
  fieldLabel,
  emptyMapping,
  normalizeHeader,
  FIELD_KEYS,
  IMPORT_KINDS,
  type ImportKind,
  type BulkKind,
  type FieldKey,
  type FieldSpec,
  type ColumnMapping,
} from './columnMapping';
export {
  phoneFromCell,
  amountFromCell,
  textFromCell,
  dateFromCell,
  networkFromCell,
  vendTypeFromCell,
  accountNumberFromCell,
  type PhoneFromCell,
  type AmountFromCell,
  type Parsed,
} from './cellValues';
export { rowSentence } from './bulkRowReaders';
export {
  validateBulkRows,
  totalRowsNote,
  type BulkCatalogs,
  type ValidationResult,
  type ValidRow,
  type InvalidRow,
  type RowIssue,
  type RecentMatch,
  type Duplicate,
  type InFileDuplicate,
  type RecentDuplicate,
  type NetworkConflict,
  type TotalRow,
} from './validateRows';
export { validateItem, indexCatalogs, airtimeKoboRange, AIRTIME_MIN_KOBO, type ItemCatalogs, type PurchaseCatalogs } from './validateItem';
export { FORM_WORDS, SHEET_WORDS, type ItemChecker, type ItemFields, type AirtimeFields, type DataFields, type ElectricityFields, type CableFields } from './itemFields';
export { hiddenInCell, hiddenCellTextFor } from './hiddenCells';
export { validateContactRows, type ContactRow, type ContactDuplicate, type ContactValidation } from './validateContacts';
