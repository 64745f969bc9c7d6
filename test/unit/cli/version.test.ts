/**
 * `vendesk --version` prints the package's version and does nothing else: anywhere on the line,
 * with --json as one document, and without opening (or creating) the data folder.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main';
import { ROOT } from '../../support/testApp';

const packageVersion = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (t) => (stdout += `${t}\n`), stderr: (t) => (stderr += `${t}\n`), env: {} });
  return { code, stdout, stderr };
}

describe('vendesk --version', () => {
  it("prints package.json's version, before or after a command, and opens no data folder", async () => {
    const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-version-')), 'data');
    for (const argv of [['--version'], ['--data-dir', dataDir, '--version'], ['balance', '--version', '--data-dir', dataDir]]) {
      expect(await run(argv), argv.join(' ')).toEqual({ code: 0, stdout: `${packageVersion}\n`, stderr: '' });
    }
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it('is one JSON document with --json', async () => {
    const r = await run(['--json', '--version']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ version: packageVersion });
  });
});
