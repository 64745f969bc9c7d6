/**
 * A file of more than 400 lines is more than a reader holds at once: every such file of src/ says
 * why it is one file in its leading comment ("Longer than 400 lines on purpose: …", "Over 400
 * lines because …"), or it is split. A file that grows past 400 lines without a reason fails here,
 * naming it and its length.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(__dirname, '../../../src');
const LIMIT = 400;
/** The reason, in the file's leading comment. */
const REASON = /(?:longer than|over) 400 lines (?:on purpose|because)\b.{10,}/i;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : /\.(tsx?|mjs)$/.test(e.name) ? [p] : [];
  });
}

/** The comment a file opens with (block or line comments), up to its first statement. */
function leadingComment(text: string): string {
  const lines = text.split('\n');
  const comment: string[] = [];
  for (const line of lines) {
    const t = line.trim();
    if (t === '' || t.startsWith('/*') || t.startsWith('*') || t.startsWith('//')) comment.push(t);
    else break;
  }
  return comment.join(' ');
}

describe('long files say why', () => {
  it('reads the reason where a file gives one, and sees none where it does not', () => {
    expect(leadingComment('/**\n * Longer than 400 lines on purpose: one list of endpoints.\n */\nimport x from "y";\n')).toMatch(REASON);
    expect(leadingComment('// Over 400 lines because one reading shares its state.\nexport const x = 1;\n')).toMatch(REASON);
    expect(leadingComment('/** A module. */\nexport const x = 1;\n// Longer than 400 lines on purpose: said too late.\n')).not.toMatch(REASON);
  });

  it(`every file of src/ longer than ${LIMIT} lines says why in its leading comment, or is split`, () => {
    const long = sourceFiles(SRC)
      .map((file) => ({ file: path.relative(SRC, file), text: fs.readFileSync(file, 'utf8') }))
      .map(({ file, text }) => ({ file, lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0), text }))
      .filter((f) => f.lines > LIMIT);
    expect(long.length).toBeGreaterThan(0);
    expect(long.filter((f) => !REASON.test(leadingComment(f.text))).map((f) => `${f.file} (${f.lines} lines)`)).toEqual([]);
  });
});
