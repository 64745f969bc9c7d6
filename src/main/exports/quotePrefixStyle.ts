/**
 * The quote-prefix cell style of XLSX (`<xf quotePrefix="1">`, ECMA-376 §18.8.45): the cell holds
 * its text as it is, and Excel shows a `'` in the edit line only, so editing a cell that reads
 * `=1+2` or `+ Refunds…` keeps it text instead of turning it into a formula. No apostrophe is
 * stored in the value, so every reader (LibreOffice, pandas, Power Query) gets the exact text.
 *
 * exceljs 4.4 has no option for it. Its workbook writer registers each cell style through
 * `styles.addStyleModel(model)`, which turns the model into `<xf …>` XML and keeps one copy of each
 * distinct XML. `allowQuotePrefix` wraps that method on one writer: a style with
 * `quotePrefix: true` is registered without it, then as the same XML with the attribute added.
 * Should exceljs's internals ever change shape, the wrapper is not installed and cells are written
 * without the prefix — still plain string cells, never formulas (the unit test notices).
 */
import type ExcelJS from 'exceljs';

/** A cell style with the quote prefix, as given to `cell.style`. */
export type QuotedStyle = Partial<ExcelJS.Style> & { quotePrefix: true };

interface StyleManager {
  addStyleModel(model: unknown, cellType?: unknown): number;
  model: { styles: string[] };
  index: { style: Record<string, number> };
}

function isStyleManager(value: unknown): value is StyleManager {
  const v = value as Partial<StyleManager> | null;
  return typeof v?.addStyleModel === 'function' && Array.isArray(v.model?.styles) && typeof v.index?.style === 'object' && v.index.style !== null;
}

/** `style` plus the quote prefix. */
export function quoted(style: Partial<ExcelJS.Style> = {}): QuotedStyle {
  return { ...style, quotePrefix: true };
}

/** Makes `quotePrefix: true` in a cell style reach the file written by `workbook`. */
export function allowQuotePrefix(workbook: ExcelJS.stream.xlsx.WorkbookWriter): void {
  const styles: unknown = (workbook as unknown as { styles?: unknown }).styles;
  if (!isStyleManager(styles)) return;
  const register = styles.addStyleModel.bind(styles);
  const ids = new WeakMap<object, number>();
  styles.addStyleModel = (model: unknown, cellType?: unknown): number => {
    if (typeof model !== 'object' || model === null || (model as { quotePrefix?: unknown }).quotePrefix !== true) return register(model, cellType);
    const known = ids.get(model);
    if (known !== undefined) return known;
    const { quotePrefix: _prefix, ...plain } = model as Record<string, unknown>;
    const xml = styles.model.styles[register(plain, cellType)].replace(/^<xf\b/, '<xf quotePrefix="1"');
    let id = styles.index.style[xml];
    if (id === undefined) {
      id = styles.model.styles.length;
      styles.index.style[xml] = id;
      styles.model.styles.push(xml);
    }
    ids.set(model, id);
    return id;
  };
}
