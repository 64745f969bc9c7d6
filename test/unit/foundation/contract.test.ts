import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { operations } from '../../../src/shared/contract';
import { handlers } from '../../../src/main/handlers';
import { APP_VERSION } from '../../../src/main/version';

describe('the app contract', () => {
  it('has exactly one handler for every operation, and no handler without an operation', () => {
    expect(Object.keys(handlers).sort()).toEqual(Object.keys(operations).sort());
  });

  it('gives every operation a summary, and an input schema that refuses what is not an object of its fields', () => {
    for (const [name, def] of Object.entries(operations)) {
      expect(def.summary.length, name).toBeGreaterThan(5);
      for (const wrong of [42, 'text', null, [1, 2]]) expect(def.input.safeParse(wrong).success, `${name} refuses ${JSON.stringify(wrong)}`).toBe(false);
    }
  });

  it('keeps the app version equal to package.json', () => {
    const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')) as { version: string };
    expect(APP_VERSION).toBe(pkg.version);
  });
});
