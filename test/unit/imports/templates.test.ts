import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectMapping, readSpreadsheet, validateBulkRows, validateContactRows } from '../../../src/main/imports';
import { TEMPLATE_KINDS, sandboxCatalogs } from '../../../bench/generate/spreadsheets';

const TEMPLATES = join(__dirname, '../../../resources/templates');

describe('downloadable templates import cleanly', () => {
  for (const kind of TEMPLATE_KINDS) {
    for (const ext of ['csv', 'xlsx']) {
      it(`${kind}.${ext}: every example row is valid`, async () => {
        const table = await readSpreadsheet(join(TEMPLATES, `${kind}.${ext}`));
        expect(table.headerRow).toBe(1);
        expect(table.rows).toHaveLength(2);
        const mapping = detectMapping(table.headers, kind);
        if (kind === 'contacts') {
          expect(validateContactRows(table, mapping).valid).toHaveLength(2);
        } else {
          const result = validateBulkRows(table, mapping, kind, sandboxCatalogs());
          expect(result.errors).toEqual([]);
          expect(result.valid).toHaveLength(2);
          expect(result.valid.every((r) => r.phone.startsWith('0'))).toBe(true);
        }
      });
    }
  }
});
