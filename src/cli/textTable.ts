/** Rows as aligned columns (two spaces between), the last column left ragged. */
export function textTable(rows: string[][]): string {
  if (rows.length === 0) return '';
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows.map((r) => r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]))).join('  ')).join('\n');
}
