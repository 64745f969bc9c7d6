#!/usr/bin/env node
// `npm run test:changed`: the inner loop. Runs only what a change touches — the files changed
// against main (committed on this branch) plus uncommitted and untracked ones — and says what it
// chose and why. docs/testing.md, "The inner loop", explains the rules; in short:
//   - a changed test file runs itself;
//   - a changed source file runs the unit tests that import it directly or through at most
//     MAX_HOPS - 1 modules in between, never through the composition root (src/main/app.ts) or
//     anything that starts it (test/support/testApp.ts, the shells): through those, everything
//     reaches everything; and the integration tests that import it directly (but for src/shared);
//   - a changed file under src/main/<feature>/ also runs test/unit/<feature>/ and
//     test/integration/<feature>/ (the feature's own suites drive it through the app);
//   - a changed file that is not code (a doc, a fixture) runs the tests that name it;
//   - the type-check is `tsc -b` of the projects that hold the changed files (incremental: it
//     rechecks what the change can affect) and eslint runs on the changed files;
//   - end-to-end tests only when the renderer changed, only the files of the pages it reaches.
// Options: --base REF (default main), --dry (print the plan only), --no-e2e, --no-typecheck.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MAX_HOPS = 3;
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const baseIndex = args.indexOf('--base');
const base = baseIndex >= 0 ? args[baseIndex + 1] : 'main';
const known = new Set(['--dry', '--no-e2e', '--no-typecheck', '--base']);
for (const [i, a] of args.entries()) {
  if (a.startsWith('--') && !known.has(a)) usage(`Unknown option ${a}.`);
  if (!a.startsWith('--') && args[i - 1] !== '--base') usage(`Unexpected argument ${a}.`);
}
if (baseIndex >= 0 && !base) usage('--base needs a branch or commit.');

function usage(message) {
  console.error(`${message} Usage: npm run test:changed -- [--base REF] [--dry] [--no-e2e] [--no-typecheck]`);
  process.exit(2);
}

const git = (...a) =>
  execFileSync('git', a, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
    .split('\n')
    .filter(Boolean);
const rel = (file) => path.relative(root, file).split(path.sep).join('/');

// ── What changed ──────────────────────────────────────────────────────────────────────────────
function changedFiles() {
  let mergeBase;
  try {
    mergeBase = git('merge-base', base, 'HEAD')[0];
  } catch {
    usage(`No branch or commit "${base}" to compare with.`);
  }
  const files = new Set([
    ...git('diff', '--name-only', mergeBase, 'HEAD'), // committed on this branch
    ...git('diff', '--name-only', 'HEAD'), // staged and unstaged
    ...git('ls-files', '--others', '--exclude-standard'), // new, not yet added
  ]);
  return [...files].filter((f) => fs.existsSync(path.join(root, f))).sort();
}

// ── The import graph (value imports only: `import type` reaches nothing at run time) ───────────
const CODE = /\.(ts|tsx|mts|mjs|js)$/;
const IMPORT = /(?:^|[\n;])\s*(import|export)\s+(type\s+)?(?:([\w*${}\s,]+?)\s+from\s+)?['"]([^'"\n]+)['"]/g;
const DYNAMIC = /\bimport\(\s*['"]([^'"\n]+)['"]\s*\)/g;

function resolveImport(fromFile, spec) {
  if (!spec.startsWith('.')) return null;
  const target = path.resolve(path.dirname(path.join(root, fromFile)), spec);
  const stem = target.replace(/\.(js|mjs)$/, '');
  for (const candidate of [target, `${target}.ts`, `${target}.tsx`, `${stem}.ts`, `${stem}.tsx`, `${target}.mjs`, `${target}/index.ts`, `${target}/index.tsx`]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return rel(candidate);
  }
  return null;
}

function importGraph(files) {
  const imports = new Map(); // file → files it imports (values)
  for (const file of files) {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    const deps = new Set();
    for (const m of text.matchAll(IMPORT)) {
      const [, , typeOnly, clause, spec] = m;
      if (typeOnly) continue;
      // `import { type A, type B } from …` is type-only too.
      if (clause && /^\{[\s\S]*\}$/.test(clause.trim())) {
        const names = clause
          .trim()
          .slice(1, -1)
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        if (names.length > 0 && names.every((n) => n.startsWith('type '))) continue;
      }
      const dep = resolveImport(file, spec);
      if (dep) deps.add(dep);
    }
    for (const m of text.matchAll(DYNAMIC)) {
      const dep = resolveImport(file, m[1]);
      if (dep) deps.add(dep);
    }
    imports.set(file, deps);
  }
  const importers = new Map(files.map((f) => [f, new Set()]));
  for (const [file, deps] of imports) for (const dep of deps) importers.get(dep)?.add(file);
  return { imports, importers };
}

const isVitestFile = (f) => /\.test\.tsx?$/.test(f) && (f.startsWith('src/') || f.startsWith('test/unit/') || f.startsWith('test/integration/'));
const isE2eFile = (f) => f.startsWith('test/e2e/') && f.endsWith('.e2e.ts');
const isRenderer = (f) => f.startsWith('src/renderer/');
const LINTABLE = /\.(ts|tsx|mjs|js)$/;

/** Everything that (transitively) imports `start`: the files above it. */
function above(importers, start) {
  const seen = new Set([start]);
  const queue = [start];
  while (queue.length > 0) {
    for (const importer of importers.get(queue.shift()) ?? []) {
      if (!seen.has(importer)) {
        seen.add(importer);
        queue.push(importer);
      }
    }
  }
  return seen;
}

/** Files reached from `start` walking importers up to `maxHops` edges, never through a hub. */
function importersWithin(importers, start, maxHops, isHub) {
  const dist = new Map([[start, 0]]);
  const via = new Map();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift();
    const d = dist.get(file);
    if (d >= maxHops) continue;
    if (file !== start && isHub(file)) continue; // reached, but nothing is reached through it
    for (const importer of importers.get(file) ?? []) {
      if (!dist.has(importer)) {
        dist.set(importer, d + 1);
        via.set(importer, file);
        queue.push(importer);
      }
    }
  }
  return { dist, via };
}

function pathTo(via, start, file) {
  const chain = [file];
  while (chain[chain.length - 1] !== start) chain.push(via.get(chain[chain.length - 1]));
  return chain.reverse();
}

// ── The plan ──────────────────────────────────────────────────────────────────────────────────
const changed = changedFiles();
const all = [...new Set([...git('ls-files'), ...git('ls-files', '--others', '--exclude-standard')])].filter(
  (f) => CODE.test(f) && !f.startsWith('node_modules/') && fs.existsSync(path.join(root, f)),
);
const { importers } = importGraph(all);
const COMPOSITION_ROOT = 'src/main/app.ts';
const hubs = above(importers, COMPOSITION_ROOT);
const isHub = (f) => hubs.has(f);

const vitest = new Map(); // test file → why
const e2e = new Map();
const notes = [];
const choose = (map, file, why) => {
  if (!map.has(file)) map.set(file, why);
};

const routes = (() => {
  const text = fs.readFileSync(path.join(root, 'src/renderer/src/routes.tsx'), 'utf8');
  return new Map([...text.matchAll(/path:\s*'([\w-]+)'[^}]*?component:\s*(\w+)/g)].map((m) => [`src/renderer/src/pages/${m[2]}.tsx`, m[1]]));
})();
const e2eFiles = all.filter(isE2eFile);
const e2eText = new Map(e2eFiles.map((f) => [f, fs.readFileSync(path.join(root, f), 'utf8')]));

function e2eForPage(page, why) {
  const route = routes.get(page);
  if (!route) return;
  // The files named for the page (reconcile.e2e.ts, transactionsDeep.e2e.ts…); else those that open it.
  const named = e2eFiles.filter((f) => path.basename(f).toLowerCase().startsWith(route));
  const opening = e2eFiles.filter((f) => e2eText.get(f).includes(`#/${route}`));
  const picked = named.length > 0 ? named : opening;
  for (const f of picked) choose(e2e, f, `${why} → page ${path.basename(page)} (#/${route})`);
  const others = opening.filter((f) => !picked.includes(f));
  if (others.length > 0) notes.push(`${others.length} more end-to-end file(s) also open #/${route}; \`npm run test:e2e\` runs them.`);
}

for (const file of changed) {
  if (isVitestFile(file)) {
    choose(vitest, file, 'changed');
    continue;
  }
  if (isE2eFile(file)) {
    choose(e2e, file, 'changed');
    continue;
  }
  if (file.startsWith('test/e2e/')) {
    // The end-to-end harness: the e2e files that import it.
    const { dist } = importersWithin(importers, file, MAX_HOPS, isHub);
    for (const [f] of dist) if (isE2eFile(f)) choose(e2e, f, `imports ${file}`);
    continue;
  }
  if (!CODE.test(file)) {
    // A doc, a fixture, a config: the tests that name it.
    const name = path.basename(file);
    for (const t of all.filter(isVitestFile)) {
      const text = fs.readFileSync(path.join(root, t), 'utf8');
      if (text.includes(file) || (name.length > 8 && text.includes(name))) choose(vitest, t, `names ${file}`);
    }
    continue;
  }
  const { dist, via } = importersWithin(importers, file, MAX_HOPS, isHub);
  for (const [f, d] of dist) {
    if (d === 0) continue;
    const chain = pathTo(via, file, f);
    // Unit tests within MAX_HOPS; an integration test only when it imports the file itself (each
    // starts a sandbox and an app: reached through other modules, there are too many to be quick),
    // and not for src/shared: those pure modules are pinned by their unit tests, and integration
    // tests import them to write their expected figures (formatNaira), not to exercise them.
    const integration = f.startsWith('test/integration/');
    if (isVitestFile(f) && (!integration || (d === 1 && !file.startsWith('src/shared/')))) {
      choose(vitest, f, d === 1 ? `imports ${file}` : `imports ${chain.slice(1, -1).reverse().join(' → ')} → ${file}`);
    }
    if (isRenderer(file) && routes.has(f)) e2eForPage(f, `${file} reached by`);
  }
  if (isRenderer(file) && routes.has(file)) e2eForPage(file, 'changed');
  if (isRenderer(file) && !routes.has(file) && ![...dist.keys()].some((f) => routes.has(f))) {
    notes.push(`${file} reaches no page within ${MAX_HOPS} imports (the frame, the routes): no end-to-end file chosen for it; \`npm run test:e2e\` runs them all.`);
  }
  const feature = /^src\/main\/([\w-]+)\//.exec(file)?.[1];
  if (feature) {
    for (const t of all.filter(isVitestFile)) {
      if (t.startsWith(`test/unit/${feature}/`) || t.startsWith(`test/integration/${feature}/`)) choose(vitest, t, `the ${feature} feature's suite (${file})`);
    }
  }
}

// The type-check projects whose files a change can affect (tsc -b is incremental within each).
const projects = new Set();
for (const f of changed.filter((x) => /\.(ts|tsx|mts)$/.test(x) || /^tsconfig.*\.json$/.test(x))) {
  if (f.startsWith('src/renderer/')) projects.add('tsconfig.web.json');
  else if (f.startsWith('src/shared/') || f.startsWith('src/preload/') || f.startsWith('tsconfig'))
    ['tsconfig.node.json', 'tsconfig.web.json', 'tsconfig.e2e.json'].forEach((p) => projects.add(p));
  else if (f.startsWith('test/e2e/') || f === 'playwright.config.ts') projects.add('tsconfig.e2e.json');
  else ['tsconfig.node.json', 'tsconfig.e2e.json'].forEach((p) => projects.add(p));
}

const lintable = changed.filter((f) => LINTABLE.test(f) && !f.startsWith('.') && !f.includes('/fixtures/'));

// ── Print and run ─────────────────────────────────────────────────────────────────────────────
console.log(`Changed against ${base} (merge base) and uncommitted: ${changed.length} file(s)`);
for (const f of changed) console.log(`  ${f}`);
console.log(`\nVitest: ${vitest.size} file(s)`);
for (const [f, why] of vitest) console.log(`  ${f}\n      ← ${why}`);
console.log(`\nEnd-to-end: ${flag('--no-e2e') ? 'skipped (--no-e2e)' : `${e2e.size} file(s)`}`);
if (!flag('--no-e2e')) for (const [f, why] of e2e) console.log(`  ${f}\n      ← ${why}`);
for (const note of notes) console.log(`  (${note})`);
console.log(
  `\nType-check: ${flag('--no-typecheck') ? 'skipped (--no-typecheck)' : projects.size === 0 ? 'nothing to check' : `tsc -b ${[...projects].join(' ')} (incremental: the projects holding the changed files)`}`,
);
console.log(`Lint: ${lintable.length} changed file(s)`);
console.log(
  `(Not run: tests that reach a changed file only through ${COMPOSITION_ROOT}: ${[...hubs].filter((f) => !isVitestFile(f)).length} modules and ${[...hubs].filter(isVitestFile).length} test files start the whole app. \`npm test\` runs everything.)`,
);
if (flag('--dry')) process.exit(0);

const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const results = [];
function step(title, command, commandArgs) {
  console.log(`\n━━ ${title}`);
  const started = Date.now();
  const r = spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit' });
  const seconds = (Date.now() - started) / 1000;
  console.log(`━━ ${title}: ${r.status === 0 ? 'ok' : 'FAILED'} (${seconds.toFixed(1)} s)`);
  results.push({ title, ok: r.status === 0, seconds });
  return r.status === 0;
}

const started = Date.now();
if (!flag('--no-typecheck') && projects.size > 0) step(`type-check (${[...projects].join(', ')})`, bin('tsc'), ['-b', ...projects]);
if (lintable.length > 0) step('eslint (changed files)', bin('eslint'), ['--max-warnings', '0', '--no-warn-ignored', ...lintable]);
if (vitest.size > 0) step(`vitest (${vitest.size} file(s))`, bin('vitest'), ['run', ...vitest.keys()]);
if (!flag('--no-e2e') && e2e.size > 0) {
  if (step('build (electron-vite)', bin('electron-vite'), ['build', '--logLevel', 'error'])) step(`playwright (${e2e.size} file(s))`, bin('playwright'), ['test', ...e2e.keys()]);
}
const total = (Date.now() - started) / 1000;
console.log(`\n${results.map((r) => `${r.title}: ${r.ok ? 'ok' : 'FAILED'} ${r.seconds.toFixed(1)} s`).join(' · ') || 'nothing to run'}`);
console.log(`test:changed ${results.every((r) => r.ok) ? 'passed' : 'FAILED'} in ${total.toFixed(1)} s`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
