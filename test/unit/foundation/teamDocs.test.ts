/**
 * docs/team.md says what the workbook of `vendesk audit export` holds: its column names are the
 * workbook's own, in order (issue 23: the docs said "Amount (₦)" and "Detail (JSON)").
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUDIT_EXPORT_COLUMNS } from '../../../src/main/team/auditTrail';
import { ROOT } from '../../support/vendeskProcess';

describe('docs/team.md', () => {
  it('names the audit workbook’s columns exactly as the workbook does', () => {
    const doc = fs.readFileSync(path.join(ROOT, 'docs', 'team.md'), 'utf8');
    const listed = /- Sheet \*\*Audit trail\*\*: ([\s\S]*?)\.(?: |\n)/.exec(doc)?.[1] ?? '';
    // Split on commas outside parentheses: "When (UTC)" and "Time (µs since 1970)" are one column each.
    const names = listed
      .replace(/\s+/g, ' ')
      .split(/,(?![^(]*\))/)
      .map((n) => n.trim());
    expect(names).toEqual(AUDIT_EXPORT_COLUMNS.map((c) => c.header));
  });
});
