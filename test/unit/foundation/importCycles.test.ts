/**
 * No two folders of src/main import each other, even through others, and no two files anywhere in
 * src/ do — the services, the shells, the CLI, the renderer, the contract and the sandbox: imports
 * go one way (docs/architecture.md). Read from the sources as they are (types and `import()`
 * included), so a cycle is found wherever it closes; the lint rule names the folder rules one
 * import at a time (layers.test.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(__dirname, '../../../src');
const MAIN = path.join(SRC, 'main');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** Each file's imports of other files of `dir`. */
function importGraph(dir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(dir)) {
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map((i) => i.fileName)
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => path.resolve(path.dirname(file), spec))
      .map((base) => [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')].find((c) => fs.existsSync(c)))
      .filter((t): t is string => t !== undefined && t.startsWith(dir));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The groups of nodes that reach each other (Tarjan's strongly connected components), larger than one. */
function cycles(edges: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** A file's folder under src/main; a file directly in src/main is a node of its own. */
const folderOf = (file: string) => path.relative(MAIN, file).split(path.sep)[0];

describe('imports in src go one way', () => {
  const graph = importGraph(MAIN);
  const everything = importGraph(SRC);

  it('finds the imports it checks (the reading works)', () => {
    expect(graph.get(path.join(MAIN, 'buying', 'bulkService.ts'))).toContain(path.join(MAIN, 'buying', 'teamGate.ts'));
    expect(graph.get(path.join(MAIN, 'team', 'bulkApproval.ts'))).toContain(path.join(MAIN, 'buying', 'teamGate.ts'));
    expect(
      cycles(
        new Map([
          ['a', new Set(['b'])],
          ['b', new Set(['c'])],
          ['c', new Set(['a'])],
        ]),
      ),
    ).toEqual([['a', 'b', 'c']]);
  });

  it('no folder imports another that imports it back, directly or through others', () => {
    const folders = new Map<string, Set<string>>();
    for (const [file, targets] of graph) {
      for (const t of targets) {
        if (folderOf(t) === folderOf(file)) continue;
        if (!folders.has(folderOf(file))) folders.set(folderOf(file), new Set());
        folders.get(folderOf(file))!.add(folderOf(t));
      }
    }
    expect(cycles(folders)).toEqual([]);
  });

  it('no file of src/ imports another that imports it back, directly or through others', () => {
    expect(everything.get(path.join(SRC, 'cli', 'main.ts'))?.length).toBeGreaterThan(0);
    const files = new Map([...everything].map(([f, targets]) => [path.relative(SRC, f), new Set(targets.map((t) => path.relative(SRC, t)))]));
    expect(cycles(files)).toEqual([]);
  });

  it('no service, handler or loop imports the composition root (only the shells start the app)', () => {
    const importers = [...graph].filter(([, targets]) => targets.includes(path.join(MAIN, 'app.ts'))).map(([f]) => path.relative(MAIN, f));
    expect(importers.every((f) => f === 'index.ts' || f.startsWith(`web${path.sep}`))).toBe(true);
  });
});
