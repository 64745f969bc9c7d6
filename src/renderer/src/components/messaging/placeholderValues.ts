/** The values typed for a template's placeholders with the one at `index` replaced (the list grows when it is shorter). */
export function withValueAt(values: string[], index: number, value: string): string[] {
  const next = [...values];
  next[index] = value;
  return next;
}
