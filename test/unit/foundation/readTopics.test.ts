/**
 * The read side of invalidation (src/shared/contract/readTopics.ts): what each read operation
 * shows is declared once, for operations that only read, with topics some write announces.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { operations } from '../../../src/shared/contract';
import { DATA_TOPICS } from '../../../src/shared/contract/events';
import { READ_TOPICS } from '../../../src/shared/contract/readTopics';

const ROOT = path.resolve(__dirname, '../../..');

describe('what the reads show', () => {
  it('names only operations that change nothing themselves, and topics that exist', () => {
    for (const [name, topics] of Object.entries(READ_TOPICS)) {
      expect('invalidates' in operations[name as keyof typeof operations], `${name} is a read`).toBe(false);
      for (const t of topics) expect(DATA_TOPICS, `${name}: ${t}`).toContain(t);
    }
  });

  it('names a topic only when some operation says it changes it', () => {
    const written = new Set(Object.values(operations).flatMap((def) => ('invalidates' in def ? [...(def.invalidates ?? [])] : [])));
    for (const [name, topics] of Object.entries(READ_TOPICS)) for (const t of topics) expect(written.has(t), `${name} waits for ${t}, which no operation announces`).toBe(true);
  });

  it('leaves no window listing by hand the topics of an operation the contract declares', () => {
    const renderer = path.join(ROOT, 'src/renderer/src');
    const files = fs.readdirSync(renderer, { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx?$/.test(f));
    const handLists: string[] = [];
    for (const f of files) {
      const source = fs.readFileSync(path.join(renderer, f), 'utf8');
      // `const x = useOperation('name', …); useDataChanged([...], () => void x.reload());` for a declared operation.
      for (const m of source.matchAll(/const (\w+) = useOperation\('([\w.]+)'[^;]*;[\s\S]{0,400}?useDataChanged\(\[[^\]]*\],\s*\(\) => void \1\.reload\(\)\)/g)) {
        if (m[2] in READ_TOPICS) handLists.push(`${f}: ${m[2]}`);
      }
    }
    expect(handLists).toEqual([]);
  });
});
