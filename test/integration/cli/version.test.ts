/** `vendesk --version` prints the version of package.json, with or without --json, and nothing else. */
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../../support/testApp';
import { runInProcess } from './cliHarness';

const version = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

it("vendesk --version prints package.json's version", async () => {
  const text = await runInProcess(['--version'], {});
  expect(text.code).toBe(0);
  expect(text.stdout.trim()).toBe(version);
  expect(text.stderr).toBe('');
  const json = await runInProcess(['--version', '--json'], {});
  expect(JSON.parse(json.stdout)).toEqual({ version });
  const help = await runInProcess(['--help'], {});
  expect(help.stdout).toContain('--version');
});
