/**
 * The JSON a command prints with `--json`, declared once per command as a zod schema: the tests
 * parse every real output with it (strict objects, so an undeclared field fails), and
 * docs/cli.md shows it as the text {@link shapeText} makes, so the two cannot drift.
 */
import { z } from 'zod';

/** An amount of money in the JSON: always Naira, as a number. */
export const naira = z.number().describe('Naira');
/** Naira, or null when it is not known (never 0 for unknown). */
export const nairaOrNull = z.number().nullable().describe('Naira; null when not known');
/** A date and time, ISO 8601. */
export const isoTime = z.string().describe('ISO 8601');

/** The document printed on stdout (with `--json`) when a command fails: exit 1, or 2 for a usage error. */
export const errorDocument = z.strictObject({
  error: z.strictObject({ code: z.string(), message: z.string(), hint: z.string().optional() }),
});

type Node = {
  type?: string | string[];
  properties?: Record<string, Node>;
  required?: string[];
  additionalProperties?: Node | boolean;
  items?: Node;
  anyOf?: Node[];
  oneOf?: Node[];
  enum?: unknown[];
  const?: unknown;
  description?: string;
};

const WIDTH = 100;

function scalar(type: string): string {
  return type === 'integer' ? 'number' : type;
}

/** One line when it fits, else one field a line with its description as a comment. */
function render(node: Node, indent: string): string {
  if (node.const !== undefined) return JSON.stringify(node.const);
  if (node.enum) return node.enum.map((v) => JSON.stringify(v)).join(' | ');
  const union = node.anyOf ?? node.oneOf;
  if (union) return union.map((n) => render(n, indent)).join(' | ');
  const types = Array.isArray(node.type) ? node.type : node.type ? [node.type] : [];
  if (types.length > 1) return types.map((t) => render({ ...node, type: t }, indent)).join(' | ');
  const type = types[0];
  if (type === 'array') {
    const item = node.items ? render(node.items, indent) : 'unknown';
    return /[|]/.test(item) && !item.startsWith('{') ? `(${item})[]` : `${item}[]`;
  }
  if (type === 'object') {
    if (!node.properties && node.additionalProperties && typeof node.additionalProperties === 'object') {
      return `{ [key: string]: ${render(node.additionalProperties, indent)} }`;
    }
    const required = new Set(node.required ?? []);
    const entries = Object.entries(node.properties ?? {});
    if (entries.length === 0) return '{}';
    const inner = `${indent}  `;
    const fields = entries.map(([key, value]) => ({ head: `${key}${required.has(key) ? '' : '?'}: ${render(value, inner)}`, note: value.description }));
    const flat = `{ ${fields.map((f) => f.head).join(', ')} }`;
    if (flat.length + indent.length <= WIDTH && !flat.includes('\n') && fields.every((f) => !f.note)) return flat;
    return `{\n${fields.map((f) => `${inner}${f.head},${f.note ? ` // ${f.note}` : ''}`).join('\n')}\n${indent}}`;
  }
  return type ? scalar(type) : 'unknown';
}

/** The schema as TypeScript-like text for the docs: `{ balance: number, … }`, money fields marked Naira. */
export function shapeText(schema: z.ZodType): string {
  return render(z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as Node, '');
}
