/**
 * The layers of docs/architecture.md are held by the linter (`eslint-rules/layers.mjs`, rule
 * `vendesk/layers`): a file importing across a layer the wrong way fails `npx eslint`. Each case
 * lints a fixture text as if it were a file at that path, with the project's own configuration.
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../../..');
const eslint = new ESLint({ cwd: root });

async function layerErrors(file: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: path.join(root, file) });
  return result.messages.filter((m) => m.ruleId === 'vendesk/layers').map((m) => m.message);
}

describe('vendesk/layers', () => {
  it('refuses a service importing the dispatcher or a handler (a layer above it)', async () => {
    const errors = await layerErrors(
      'src/main/buying/layerFixture.ts',
      "import { dispatch } from '../dispatch';\nimport { handlers } from '../handlers';\nexport const x = [dispatch, handlers];\n",
    );
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/^services may not import handlers: '\.\.\/dispatch'/);
  });

  it('refuses shared code importing main, and the sandbox importing main', async () => {
    expect(await layerErrors('src/shared/layerFixture.ts', "import { createApp } from '../main/app';\nexport const x = createApp;\n")).toEqual([
      expect.stringMatching(/^shared may not import composition root/),
    ]);
    expect(await layerErrors('src/sandbox/layerFixture.ts', "import { parseLogEntry } from '../main/api/parseLogEntry';\nexport const x = parseLogEntry;\n")).toEqual([
      expect.stringMatching(/^sandbox may not import services/),
    ]);
  });

  it('refuses a service or a handler importing the composition root, even for a type; the App contract is its own module', async () => {
    for (const file of ['src/main/buying/layerFixture.ts', 'src/main/handlers/layerFixture.ts']) {
      expect(await layerErrors(file, "import type { App } from '../app';\nexport type X = App;\n")).toEqual([
        expect.stringMatching(/may not import composition root \(take the App, Session and Connection types from src\/main\/appContext\.ts\)/),
      ]);
      expect(await layerErrors(file, "import { createApp } from '../app';\nexport const x = createApp;\n")).toHaveLength(1);
      expect(await layerErrors(file, "import type { App } from '../appContext';\nexport type X = App;\n")).toEqual([]);
    }
  });

  it('lets the shells and the CLI start the app through the composition root', async () => {
    expect(await layerErrors('src/main/web/layerFixture.ts', "import { createApp } from '../app';\nexport const x = createApp;\n")).toEqual([]);
    expect(await layerErrors('src/cli/layerFixture.ts', "export const x = () => import('../main/app');\n")).toEqual([]);
  });

  it('refuses purchases importing the requery loop (the cycle it broke)', async () => {
    expect(
      await layerErrors('src/main/purchases/layerFixture.ts', "import { createPendingScheduler } from '../pending/pendingScheduler';\nexport const x = createPendingScheduler;\n"),
    ).toEqual([expect.stringMatching(/^src\/main\/purchases may not import src\/main\/pending/)]);
  });

  it('refuses bulk importing the requery loop, which asks bulk’s one requery path', async () => {
    expect(
      await layerErrors('src/main/buying/layerFixture.ts', "import { createPendingScheduler } from '../pending/pendingScheduler';\nexport const x = createPendingScheduler;\n"),
    ).toEqual([expect.stringMatching(/^src\/main\/buying may not import src\/main\/pending: the requery loop asks the one requery path/)]);
  });

  it('refuses the local log copy or the client reaching up into what buys (the folder cycles it broke)', async () => {
    expect(await layerErrors('src/main/transactions/layerFixture.ts', "import { readAllLogPages } from '../buying/prepareJob';\nexport const x = readAllLogPages;\n")).toEqual([
      expect.stringMatching(/^src\/main\/transactions may not import src\/main\/buying: .*api\/logLookup\.ts/),
    ]);
    expect(await layerErrors('src/main/purchases/layerFixture.ts', "import type { BulkJobKind } from '../buying/jobStates';\nexport type X = BulkJobKind;\n")).toEqual([
      expect.stringMatching(/^src\/main\/purchases may not import src\/main\/buying/),
    ]);
    expect(await layerErrors('src/main/api/layerFixture.ts', "import { refreshReferences } from '../transactions/mirrorRefresh';\nexport const x = refreshReferences;\n")).toEqual([
      expect.stringMatching(/^src\/main\/api may not import src\/main\/transactions/),
    ]);
    expect(await layerErrors('src/main/buying/layerFixture.ts', "import { logEntriesFrom } from '../api/logLookup';\nexport const x = logEntriesFrom;\n")).toEqual([]);
  });

  it('refuses purchases or bulk importing the team (the folder cycles the gates broke); the team may build on both', async () => {
    expect(
      await layerErrors('src/main/purchases/layerFixture.ts', "import { gateSinglePurchase } from '../team/purchaseApproval';\nexport const x = gateSinglePurchase;\n"),
    ).toEqual([expect.stringMatching(/^src\/main\/purchases may not import src\/main\/team: .*buying\/teamGate\.ts/)]);
    expect(await layerErrors('src/main/buying/layerFixture.ts', "import type { TeamLink } from '../team/teamLink';\nexport type X = TeamLink;\n")).toEqual([
      expect.stringMatching(/^src\/main\/buying may not import src\/main\/team: .*buying\/teamGate\.ts/),
    ]);
    expect(await layerErrors('src/main/team/layerFixture.ts', "import { teamGate } from '../buying/teamGate';\nexport const x = [teamGate];\n")).toEqual([]);
  });

  it('allows the layers downward: a handler importing a service, the CLI importing dispatch', async () => {
    expect(await layerErrors('src/main/handlers/layerFixture.ts', "import { getCatalogs } from '../catalog/catalogCache';\nexport const x = getCatalogs;\n")).toEqual([]);
    expect(await layerErrors('src/cli/layerFixture.ts', "import { dispatch } from '../main/dispatch';\nexport const x = dispatch;\n")).toEqual([]);
  });

  it('lets the CLI start the web shell (`vendesk web`) and nothing else of the desktop shells', async () => {
    expect(await layerErrors('src/cli/layerFixture.ts', "export const x = () => import('../main/web/serveWebShell');\n")).toEqual([]);
    expect(await layerErrors('src/cli/layerFixture.ts', "export const x = () => import('../main/shell/safeTokenStore');\n")).toEqual([
      expect.stringMatching(/^cli may not import desktop and browser shells/),
    ]);
  });
});
