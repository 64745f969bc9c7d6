/**
 * docs/cli.md and the command table cannot drift: the command reference in the file is exactly
 * what the table generates (run `npm run docs:cli` after changing a command), and the file names
 * every command, every option and every global option.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EXIT_TABLE_END, EXIT_TABLE_START, REFERENCE_END, REFERENCE_START, commandReference, exitCodeTable } from '../../../src/cli/cliDocs';
import { EXIT, GLOBAL_OPTIONS } from '../../../src/cli/cliCommand';
import { COMMANDS } from '../../../src/cli/commands';
import { naira, shapeText } from '../../../src/cli/jsonShape';
import { ROOT } from '../../support/testApp';

const doc = fs.readFileSync(path.join(ROOT, 'docs', 'cli.md'), 'utf8');
const reference = doc.slice(doc.indexOf(REFERENCE_START), doc.indexOf(REFERENCE_END) + REFERENCE_END.length);

describe('docs/cli.md', () => {
  it('holds the command reference the command table generates (run `npm run docs:cli` if not)', () => {
    expect(doc.indexOf(REFERENCE_START)).toBeGreaterThan(0);
    expect(reference).toBe(commandReference(COMMANDS));
  });

  it('holds the exit-code table made from EXIT_MEANINGS, with a row for every exit code (4: waiting for approval)', () => {
    const table = doc.slice(doc.indexOf(EXIT_TABLE_START), doc.indexOf(EXIT_TABLE_END) + EXIT_TABLE_END.length);
    expect(table).toBe(exitCodeTable());
    for (const code of Object.values(EXIT)) expect(table).toMatch(new RegExp(`\\| ${code} \\| \\S`));
    expect(table).toMatch(/\| 4 \| Waiting for approval/);
  });

  it('names every command with its usage, every option, and its JSON shape', () => {
    for (const c of COMMANDS) {
      const at = reference.indexOf(`### vendesk ${c.path.join(' ')}\n`);
      expect(at, c.path.join(' ')).toBeGreaterThan(0);
      const section = reference.slice(at, reference.indexOf('\n### ', at + 1) === -1 ? undefined : reference.indexOf('\n### ', at + 1));
      expect(section).toContain(c.usage);
      for (const o of c.options) expect(section, `${c.path.join(' ')} --${o.name}`).toContain(`\`--${o.name}`);
      expect(section).toContain(shapeText(c.output));
    }
  });

  it('explains every global option', () => {
    for (const o of GLOBAL_OPTIONS) expect(doc, `--${o.name}`).toMatch(new RegExp(`\\| \`--${o.name}[ \`]`));
  });

  it('marks money as Naira in every shape, and no field is named in kobo', () => {
    for (const c of COMMANDS) expect(shapeText(c.output), c.path.join(' ')).not.toMatch(/kobo/i);
    expect(reference).toContain('balance: number, // Naira');
  });
});

describe('the shape text', () => {
  it('writes objects, arrays, unions, nullables, optionals and records as TypeScript would, with the descriptions as comments', () => {
    const schema = z.strictObject({
      amount: naira,
      reference: z.string().nullable(),
      items: z.array(z.strictObject({ state: z.enum(['success', 'failed']) })).optional(),
      approval: z.record(z.string(), z.string()),
      stopped: z.literal(true),
      either: z.union([z.strictObject({ k: z.number() }), z.strictObject({ err: z.string() })]),
    });
    expect(shapeText(schema)).toBe(
      [
        '{',
        '  amount: number, // Naira',
        '  reference: string | null,',
        '  items?: { state: "success" | "failed" }[],',
        '  approval: { [key: string]: string },',
        '  stopped: true,',
        '  either: { k: number } | { err: string },',
        '}',
      ].join('\n'),
    );
    expect(shapeText(z.array(z.strictObject({ id: z.number(), name: z.string() })))).toBe('{ id: number, name: string }[]');
  });
});
