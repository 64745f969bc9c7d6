/**
 * vendesk/layers: the layers of docs/architecture.md, held by the linter.
 *
 *   shared ─▶ services ─▶ handlers ─▶ shells        sandbox: shared only
 *
 * A file may import its own layer and the layers below it, never one above. Services take the
 * App as a parameter and import its type from `src/main/appContext.ts`; nothing but the shells
 * and the CLI, which start the app, imports the composition root (`src/main/app.ts`), not even
 * for a type; only the composition root and the CLI start the sandbox. Within the
 * services, `purchases` never imports `requery`: the requery loop settles purchases, not the
 * other way round; purchases and bulk never import the team (it answers the gate bulk declares,
 * see src/main/serviceSlot.ts). Only relative imports are checked (packages are held by no-restricted-imports).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The layer of a repository path (no extension), or null outside src/. */
export function layerOf(rel) {
  const p = rel
    .replace(/\\/g, '/')
    .replace(/\.(tsx?|mjs|js)$/, '')
    .replace(/\/index$/, '');
  const under = (dir) => p === dir || p.startsWith(`${dir}/`);
  if (under('src/shared')) return 'shared';
  if (under('src/sandbox')) return 'sandbox';
  if (under('src/renderer')) return 'renderer';
  if (under('src/preload')) return 'preload';
  if (under('src/cli')) return 'cli';
  if (p === 'src/main' || under('src/main/index') || under('src/main/shell') || under('src/main/web')) return 'desktop and browser shells';
  if (under('src/main/handlers') || p === 'src/main/dispatch') return 'handlers';
  if (p === 'src/main/app') return 'composition root';
  if (under('src/main')) return 'services';
  return null;
}

/** What each layer may import (values); `typeOnly` may be imported for its types only. */
const ALLOWED = {
  shared: { values: ['shared'] },
  sandbox: { values: ['sandbox', 'shared'] },
  services: { values: ['services', 'shared'] },
  'composition root': { values: ['composition root', 'services', 'shared', 'sandbox'] },
  handlers: { values: ['handlers', 'services', 'shared'] },
  'desktop and browser shells': { values: ['desktop and browser shells', 'handlers', 'composition root', 'services', 'shared'] },
  cli: { values: ['cli', 'handlers', 'composition root', 'services', 'shared', 'sandbox'] },
  preload: { values: ['preload', 'shared'] },
  renderer: { values: ['renderer', 'shared'], typeOnly: ['preload'] },
};

/**
 * Folders of a layer another layer may import all the same: [from, to]. The command line starts
 * the web shell (`vendesk web`, the installed package's way to open the window); nothing else
 * of the desktop shells.
 */
const ALLOWED_FOLDERS = [['src/cli', 'src/main/web']];

/** Imports forbidden between folders of one layer: [from, to, why]. */
const FOLDER_RULES = [
  ['src/main/purchases', 'src/main/pending', 'the requery loop settles purchases; purchases never call the requery loop (it starts in backgroundLoops.ts)'],
  ['src/main/purchases', 'src/main/buying', 'a bulk row buys through purchases, never the other way round'],
  ['src/main/buying', 'src/main/pending', 'the requery loop asks the one requery path (buying/itemOutcomes.ts) about what is due; buying never calls the loop'],
  // The team builds on purchases and buying: every purchase asks it through the one gate buying declares.
  ...['purchases', 'buying'].map((folder) => [
    `src/main/${folder}`,
    'src/main/team',
    'the team workspace answers the one gate every purchase asks (buying/teamGate.ts), wired by app.ts',
  ]),
  // The service's client and its log reader (api/logLookup.ts) are the bottom of the services.
  ...['buying', 'purchases', 'pending', 'team', 'transactions', 'reconcile', 'messaging', 'dashboard', 'reports'].map((folder) => [
    'src/main/api',
    `src/main/${folder}`,
    'the client and the log reader sit below every service that uses them',
  ]),
  // The local copy of the log is read by what buys and reconciles; it never reaches up into them.
  ...['buying', 'purchases', 'pending', 'team', 'reconcile'].map((folder) => [
    'src/main/transactions',
    `src/main/${folder}`,
    'the local copy of the log sits below what buys, requeries and reconciles (read the service’s log through api/logLookup.ts)',
  ]),
];

function isTypeOnly(node) {
  if (node.importKind === 'type' || node.exportKind === 'type') return true;
  const specifiers = node.specifiers ?? [];
  return specifiers.length > 0 && specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type');
}

export const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports follow the layers of docs/architecture.md: shared → services → handlers → shells; the sandbox stands alone' },
    schema: [],
  },
  create(context) {
    const file = context.filename ?? context.getFilename();
    const fromRel = path.relative(ROOT, file);
    const from = layerOf(fromRel);
    if (!from) return {};
    const check = (node, source, typeOnly) => {
      if (!source || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
      const toRel = path.relative(ROOT, path.resolve(path.dirname(file), source.value));
      const to = layerOf(toRel);
      if (!to) return;
      const fromPath = fromRel.replace(/\\/g, '/');
      const toPath = toRel.replace(/\\/g, '/');
      const inFolder = (p, dir) => p === dir || p.startsWith(`${dir}/`);
      const allowed = ALLOWED[from];
      const ok =
        allowed.values.includes(to) || (typeOnly && (allowed.typeOnly ?? []).includes(to)) || ALLOWED_FOLDERS.some(([a, b]) => inFolder(fromPath, a) && inFolder(toPath, b));
      if (!ok) {
        const typeNote =
          to === 'composition root'
            ? ' (take the App, Session and Connection types from src/main/appContext.ts)'
            : (allowed.typeOnly ?? []).includes(to)
              ? ' (its types only: `import type`)'
              : '';
        context.report({
          node: source,
          message: `${from} may not import ${to}${typeNote}: '${source.value}'. Layers: shared → services → handlers → shells, sandbox on its own (docs/architecture.md).`,
        });
        return;
      }
      for (const [a, b, why] of FOLDER_RULES) {
        if (inFolder(fromPath, a) && inFolder(toPath, b)) {
          context.report({ node: source, message: `${a} may not import ${b}: ${why}.` });
        }
      }
    };
    return {
      ImportDeclaration: (node) => check(node, node.source, isTypeOnly(node)),
      ExportNamedDeclaration: (node) => check(node, node.source, isTypeOnly(node)),
      ExportAllDeclaration: (node) => check(node, node.source, node.exportKind === 'type'),
      ImportExpression: (node) => check(node, node.source, false),
    };
  },
};

export default { rules: { layers: layersRule } };
