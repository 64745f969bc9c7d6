/**
 * Finds SQL in TypeScript sources that writes the `state` of a bulk item or job, for the test that
 * holds each to its one door (test/unit/bulk/oneDoor.test.ts says what counts). No test-runner
 * imports: a script may use it too.
 */
import ts from 'typescript';

/** Where each table's state may be written. */
export const DOORS = { bulk_items: 'src/main/buying/itemMoves.ts', bulk_jobs: 'src/main/buying/jobLifecycle.ts' } as const;
export type Table = keyof typeof DOORS;

/** Stands for a `${…}` of a template: anything may be there. */
const ANY = ' \u0000 ';

/** The text of every string in `source`: literals, templates (their expressions as ANY) and `+` joins of them. */
export function stringsIn(source: string, fileName = 'x.ts'): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const texts: string[] = [];
  const textOf = (node: ts.Node): string | null => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isTemplateExpression(node)) return node.head.text + node.templateSpans.map((s) => ANY + s.literal.text).join('');
    if (ts.isParenthesizedExpression(node)) return textOf(node.expression);
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      const left = textOf(node.left);
      const right = textOf(node.right);
      if (left === null && right === null) return null;
      return (left ?? ANY) + (right ?? ANY);
    }
    return null;
  };
  const visit = (node: ts.Node): void => {
    const text = textOf(node);
    if (text !== null) texts.push(text);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return texts;
}

/** `sql` without comments, its whitespace made single spaces. */
export function normalized(sql: string): string {
  return sql
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/\s+/g, ' ');
}

/**
 * Walks `text` from `from`, calling `visit` with each character outside quotes and the depth of
 * parentheses it stands at; stops where `visit` says so, and answers that index (or the end).
 */
function walk(text: string, from: number, visit: (i: number, c: string, depth: number) => boolean): number {
  let depth = 0;
  let quote: string | null = null;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if (visit(i, c, depth)) return i;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
  }
  return text.length;
}

/** The clause starting at `from` up to the first of `ends`, a `;` or a closing parenthesis outside parentheses and quotes (or the end). */
function clause(sql: string, from: number, ends: RegExp): string {
  const end = walk(sql, from, (i, c, depth) => depth === 0 && (c === ')' || c === ';' || (/\s/.test(c) && ends.test(sql.slice(i + 1, i + 12)))));
  return sql.slice(from, end);
}

/** Splits at commas outside parentheses and quotes. */
function topLevel(list: string): string[] {
  const parts: string[] = [];
  let start = 0;
  walk(list, 0, (i, c, depth) => {
    if (c === ',' && depth === 0) {
      parts.push(list.slice(start, i));
      start = i + 1;
    }
    return false;
  });
  parts.push(list.slice(start));
  return parts;
}

const bare = (column: string): string =>
  column
    .trim()
    .replace(/^.*\./, '')
    .replace(/^["`[]|["`\]]$/g, '')
    .toLowerCase();

/** Whether a SET list assigns `state` (or may: a part built at run time). */
function setsState(list: string): boolean {
  return topLevel(list).some((part) => {
    const target = /^\s*\(([^)]*)\)\s*=/.exec(part)?.[1] ?? /^\s*([^=]*?)\s*=/.exec(part)?.[1] ?? part;
    if (target.includes('\u0000')) return true;
    return target.split(',').some((c) => bare(c) === 'state');
  });
}

const TABLE = String.raw`(?:["\x60\[]?main["\x60\]]?\.)?["\x60\[]?(\w+)["\x60\]]?`;
const CLAUSE_END = /^(?:WHERE|FROM|RETURNING|ORDER|LIMIT)\b/i;

/** The tables whose `state` a piece of SQL writes. */
export function stateWrites(sql: string): Table[] {
  const text = normalized(sql);
  const found = new Set<Table>();
  const known = (name: string): name is Table => name.toLowerCase() in DOORS;
  // UPDATE [OR …] table [[AS] alias] [INDEXED BY …] SET …
  for (const m of text.matchAll(
    new RegExp(String.raw`\bUPDATE\s+(?:OR\s+\w+\s+)?${TABLE}(?:\s+(?:AS\s+)?(?!SET\b)\w+)?(?:\s+(?:INDEXED\s+BY\s+\w+|NOT\s+INDEXED))?\s+SET\s`, 'gi'),
  )) {
    const table = m[1].toLowerCase();
    if (known(table) && setsState(clause(text, (m.index ?? 0) + m[0].length, CLAUSE_END))) found.add(table);
  }
  // INSERT … INTO table …: a REPLACE writes whole rows; an upsert writes what its DO UPDATE SET says.
  for (const m of text.matchAll(new RegExp(String.raw`\b(REPLACE|INSERT(?:\s+OR\s+(\w+))?)\s+INTO\s+${TABLE}`, 'gi'))) {
    const table = m[3].toLowerCase();
    if (!known(table)) continue;
    if (/^REPLACE$/i.test(m[1]) || /^REPLACE$/i.test(m[2] ?? '')) found.add(table);
    const rest = text.slice((m.index ?? 0) + m[0].length);
    const upsert = /\bON\s+CONFLICT\b[^;]*?\bDO\s+UPDATE\s+SET\s/i.exec(rest);
    if (upsert && setsState(clause(rest, upsert.index + upsert[0].length, CLAUSE_END))) found.add(table);
  }
  return [...found];
}
