/**
 * What costs money takes its connection (docs/architecture.md), held by the linter
 * (`eslint-rules/pinnedConnection.mjs`, rule `vendesk/pinned-connection`): in the code that buys,
 * settles or requeries — the purchase engine (`src/main/buying/`), the vending detail
 * (`src/main/purchases/`), the requery loop (`src/main/pending/`), the team's runs of purchases — a
 * read of the connection in use fails `npx eslint`; the function is given its session instead.
 * Each case lints a fixture text as if it were a file at that path, with the project's own
 * configuration, as layers.test.ts does for imports.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../../..');
const eslint = new ESLint({ cwd: root });

async function refusals(file: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: path.join(root, file) });
  return result.messages.filter((m) => m.ruleId === 'vendesk/pinned-connection').map((m) => m.message);
}

const IMPORTS = "import type { App, AppPart, Session } from '../appContext';\n";

describe('vendesk/pinned-connection', () => {
  it('refuses a purchase that reads the connection in use where it could have been given it', async () => {
    const buy = `${IMPORTS}export async function buy(app: App, amountKobo: number) {\n  const c = app.connection;\n  return app.client().purchaseAirtime([{ amount: amountKobo / 100, phoneNumber: '08031234567', network: c.kind, productCode: 'MTN-VTU', operator: '', region: '' }]);\n}\n`;
    expect(await refusals('src/main/buying/pinnedFixture.ts', buy)).toEqual([
      expect.stringMatching(/^`app\.connection` reads the connection in use: what buys, settles or requeries is given the session it works on/),
      expect.stringMatching(/^`app\.client\(\)` reads the connection in use/),
    ]);
  });

  it('refuses every way to reach it: through this.app, a pinned session taken mid-way, destructuring, a parameter typed to reach it', async () => {
    const settle = `${IMPORTS}export class Settler {\n  constructor(private readonly app: App) {}\n  settle(id: string) {\n    const session = this.app.session();\n    const { connection } = this.app;\n    return [session, connection, id];\n  }\n}\nexport function requery(app: AppPart<'db' | 'connection'>, id: string) {\n  return [app.db, id];\n}\n`;
    expect(await refusals('src/main/purchases/pinnedFixture.ts', settle)).toEqual([
      expect.stringMatching(/^`app\.session\(\)` reads the connection in use/),
      expect.stringMatching(/^`const \{ connection \} = app` reads the connection in use/),
      expect.stringMatching(/^`AppPart<'connection'>` \(a parameter that can reach it\) reads the connection in use/),
    ]);
    expect(await refusals('src/main/pending/pinnedFixture.ts', `${IMPORTS}export const dueNow = (app: App) => app.connection.profileId;\n`)).toHaveLength(1);
    expect(await refusals('src/main/team/teamJobRun.ts', `${IMPORTS}export const runHere = (app: App) => app.session;\n`)).toHaveLength(1);
  });

  it('lets a function use the session it is given', async () => {
    const given = `${IMPORTS}export function buy(app: AppPart<'db'>, session: Session, id: string) {\n  return [app.db, session.connection.profileId, session.client, id];\n}\n`;
    expect(await refusals('src/main/buying/pinnedFixture.ts', given)).toEqual([]);
    expect(await refusals('src/main/purchases/pinnedFixture.ts', given)).toEqual([]);
  });

  it('leaves the handlers, which take the session where an operation starts, and what does not cost money', async () => {
    const handler = `${IMPORTS}export const start = (app: App) => [app.session(), app.connection, app.client()];\n`;
    expect(await refusals('src/main/handlers/pinnedFixture.ts', handler)).toEqual([]);
    expect(await refusals('src/main/dashboard/pinnedFixture.ts', handler)).toEqual([]);
    expect(await refusals('src/main/team/teamWorkspace.ts', handler)).toEqual([]);
  });

  it('the only reads of the connection in use in those folders are the few that must look, each saying why on its line', () => {
    const folders = ['src/main/buying', 'src/main/purchases', 'src/main/pending', 'src/main/team'];
    const found: string[] = [];
    for (const folder of folders) {
      for (const name of fs.readdirSync(path.join(root, folder))) {
        if (!name.endsWith('.ts')) continue;
        const lines = fs.readFileSync(path.join(root, folder, name), 'utf8').split('\n');
        lines.forEach((line, i) => {
          if (!line.includes('eslint-disable-next-line vendesk/pinned-connection')) return;
          // Said why, and what it reads is on the next line.
          expect(line, `${folder}/${name}:${i + 1}`).toMatch(/vendesk\/pinned-connection -- \S.{20,}/);
          found.push(`${folder}/${name}`);
        });
      }
    }
    expect(found.sort()).toEqual([
      // Confirming: has vendesk been switched away from the session since the team and the wallet were asked?
      'src/main/buying/bulkService.ts',
      // A run's look at whether vendesk was switched away from its job's connection (it pauses).
      'src/main/buying/bulkService.ts',
      // The passes of the two loops take their session once.
      'src/main/buying/followUpLoop.ts',
      'src/main/pending/pendingScheduler.ts',
    ]);
  });
});
