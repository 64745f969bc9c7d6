/**
 * vendesk as a server gets it: `npm pack` of this checkout, `npm install -g` of the tarball into a
 * throwaway prefix (a real install: the runtime dependencies come from the registry, and
 * better-sqlite3 builds its native part there), then the installed `vendesk` with no checkout
 * behind it: `--version`, `balance --json` on the embedded sandbox, the standalone sandbox
 * (`vendesk sandbox`, its token in a 0600 file) with `balance` checked against the sandbox's own
 * wallet, and the web shell (`vendesk web`). Slow (the install takes one to three minutes, most of
 * it compiling better-sqlite3), so it is one file that runs beside the others.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIfStale } from '../../../scripts/buildIfStale.mjs';
import { ROOT, spawnProgram, untilSaid } from '../../support/vendeskProcess';
import { COMMANDS } from '../../../src/cli/commands';

const INSTALL_MS = 15 * 60_000;
const packageJson = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };

let work: string;
let prefix: string;
let vendesk: string;
let installed: string;

async function runToEnd(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const run = spawnProgram(vendesk, args, { HOME: work, ...env });
  const code = await run.closed;
  return { code, stdout: run.stdout, stderr: run.stderr };
}

beforeAll(
  () => {
    // The build the tarball packs (`npm test` makes it before the tests); made here when missing or older than the sources.
    buildIfStale(ROOT);
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-packed-'));
    prefix = path.join(work, 'prefix');
    // The build was made above (or by npm test): packing does not build again.
    const packed = JSON.parse(execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8' })) as {
      filename: string;
      files: { path: string }[];
    }[];
    const tarball = path.join(work, packed[0].filename);
    expect(packed[0].files.map((f) => f.path)).toEqual(expect.arrayContaining(['bin/vendesk.mjs', 'out/cli/index.js', 'out/renderer/index.html']));
    expect(packed[0].files.some((f) => f.path.startsWith('src/'))).toBe(false);
    // JOBS=max: node-gyp compiles better-sqlite3's two sources (SQLite itself and the binding) side by
    // side, on every core, instead of one after the other: the rest of the suite mostly waits meanwhile.
    const install = spawnSync('npm', ['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tarball], {
      cwd: work,
      encoding: 'utf8',
      timeout: INSTALL_MS,
      env: { ...process.env, JOBS: 'max' },
    });
    if (install.status !== 0) throw new Error(`npm install -g of the tarball failed:\n${install.stdout}\n${install.stderr}`);
    vendesk = path.join(prefix, 'bin', 'vendesk');
    installed = path.join(prefix, 'lib', 'node_modules', packageJson.name);
  },
  INSTALL_MS + 5 * 60_000,
);

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe('vendesk installed from its packed tarball', () => {
  it('is the built command, with neither the sources nor Electron', () => {
    expect(fs.realpathSync(vendesk)).toBe(path.join(installed, 'bin', 'vendesk.mjs'));
    expect(fs.existsSync(path.join(installed, 'out', 'cli', 'index.js'))).toBe(true);
    expect(fs.existsSync(path.join(installed, 'src'))).toBe(false);
    expect(fs.existsSync(path.join(installed, 'node_modules', 'electron'))).toBe(false);
  });

  it("prints the package's version", async () => {
    expect(await runToEnd(['--version'])).toEqual({ code: 0, stdout: `${packageJson.version}\n`, stderr: '' });
  });

  it('--help lists every command and loads none of them; a mistaken command and option are named with exit 2', async () => {
    // NODE_DEBUG=module names each file Node loads: the commands (and zod) are a chunk of their own.
    const help = await runToEnd(['--help'], { NODE_DEBUG: 'module' });
    expect(help.code).toBe(0);
    for (const c of COMMANDS) expect(help.stdout).toContain(`  ${c.path.join(' ')} `);
    expect(help.stderr).toContain(path.join('out', 'cli', 'index.js'));
    expect(help.stderr).not.toContain(path.join('out', 'cli', 'chunks'));
    const bulk = await runToEnd(['bulk', 'submit', '--help']);
    expect(bulk.stdout).toContain('--yes');
    expect(await runToEnd(['balanse'])).toMatchObject({ code: 2, stderr: expect.stringContaining("Did you mean 'vendesk balance'?") });
    expect(await runToEnd(['balance', '--jsn'])).toMatchObject({ code: 2, stderr: expect.stringContaining('Did you mean --json?') });
  });

  it('reads the balance of the embedded sandbox with --json', async () => {
    const r = await runToEnd(['balance', '--json', '--data-dir', path.join(work, 'embedded')]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ connection: 'sandbox', currency: 'NGN', balance: expect.any(Number) });
  });

  it('runs the standalone sandbox with its token from a 0600 file, refuses another token; balance, sync and an Excel export agree with the service', async () => {
    const token = `packed-${Date.now().toString(36)}-org`;
    const tokenFile = path.join(work, 'sandbox-tokens.txt');
    fs.writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
    const sandbox = spawnProgram(vendesk, ['sandbox', '--port', '0', '--token-file', tokenFile, '--balance', '250,000', '--seed-history', '120'], { HOME: work });
    try {
      await untilSaid(sandbox, () => /listening on http:\/\/127\.0\.0\.1:\d+/.test(sandbox.stdout), 'that it was listening');
      const url = /listening on (http:\/\/\S+)/.exec(sandbox.stdout)?.[1] ?? '';
      expect((await fetch(`${url}/accountBalance`, { headers: { Authorization: 'Bearer not-the-token' } })).status).toBe(401);
      const service = (await (await fetch(`${url}/accountBalance`, { headers: { Authorization: `Bearer ${token}` } })).json()) as {
        data: { GlobalBalance: { Balance: number | string }[] };
      };
      const r = await runToEnd(['balance', '--json', '--data-dir', path.join(work, 'live'), '--base-url', url], { VENDESK_TOKEN: token });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ connection: 'live', balance: Number(service.data.GlobalBalance[0].Balance) });
      // The log mirrored and written to a workbook (exceljs, loaded only for this) holds every entry the service has.
      const log = (await (await fetch(`${url}/logEntries?page=1&perPage=100&status=all`, { headers: { Authorization: `Bearer ${token}` } })).json()) as {
        data: { TotalRecords: number };
      };
      expect(log.data.TotalRecords).toBeGreaterThan(0);
      const live = ['--json', '--data-dir', path.join(work, 'live'), '--base-url', url];
      const sync = await runToEnd([...live, 'sync'], { VENDESK_TOKEN: token });
      expect(sync.code, sync.stderr).toBe(0);
      const workbook = path.join(work, 'log.xlsx');
      const exported = await runToEnd([...live, 'export', 'logs', '--out', workbook], { VENDESK_TOKEN: token });
      expect(exported.code, exported.stderr).toBe(0);
      expect(JSON.parse(exported.stdout)).toMatchObject({ rows: log.data.TotalRecords });
      expect(fs.readFileSync(workbook).subarray(0, 2).toString()).toBe('PK');
    } finally {
      sandbox.child.kill('SIGINT');
    }
    expect(await sandbox.closed).toBe(0);
  });

  it('serves the window (vendesk web) from the files it was installed with', async () => {
    const web = spawnProgram(vendesk, ['web', '--port', '0', '--data-dir', path.join(work, 'web')], { HOME: work });
    try {
      await untilSaid(web, () => web.stdout.includes('Press Ctrl-C'), 'its address');
      const origin = /(http:\/\/127\.0\.0\.1:\d+)\/#session=/.exec(web.stdout)?.[1] ?? '';
      const page = await fetch(`${origin}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
    } finally {
      web.child.kill('SIGTERM');
    }
    expect(await web.closed).toBe(0);
  });
});
