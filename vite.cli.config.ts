import { builtinModules } from 'node:module';
import { resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import { defineConfig, type Plugin } from 'vite';
import { onwarn } from './electron.vite.config';

const ENTRIES = resolve(__dirname, 'src/cli/commandEntries.ts');

/**
 * src/cli/commandEntries.ts, computed once at build time: the built command then knows every
 * command's words, summary and options without loading the commands (their zod output shapes
 * cost ~40 ms at each start). The list is read from the sources, run through tsx in a Node of
 * its own, so it is the list the sources compute.
 */
function commandEntriesAtBuildTime(): Plugin {
  return {
    name: 'vendesk-command-entries',
    async load(id) {
      if (id !== ENTRIES) return null;
      const read = `process.stdout.write(JSON.stringify(require(${JSON.stringify(ENTRIES)}).COMMAND_ENTRIES))`;
      const entries = execFileSync(process.execPath, ['--import', 'tsx', '-e', read], { cwd: __dirname, encoding: 'utf8' });
      return `export const COMMAND_ENTRIES = ${entries};\n`;
    },
  };
}

/**
 * The `vendesk` command built to plain JavaScript in out/cli (`npm run build`, scripts/build.mjs),
 * so an installed `vendesk` starts like Node itself: bin/vendesk.mjs runs out/cli/index.js. The
 * packages stay outside the bundle (they are the package's dependencies, installed with it) except
 * zod, bundled so that only the parts used are kept: the package as a whole loads every locale it
 * has (~40 ms at each start). Each `import()` in the sources becomes its own chunk, loaded only by
 * the command that needs it (the embedded sandbox, the app's areas, the web shell).
 */
export default defineConfig({
  build: {
    ssr: resolve(__dirname, 'src/cli/index.ts'),
    outDir: resolve(__dirname, 'out/cli'),
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    rollupOptions: {
      external: builtinModules.flatMap((m) => [m, `node:${m}`]),
      output: { format: 'cjs', entryFileNames: 'index.js', chunkFileNames: 'chunks/[name]-[hash].js' },
      onwarn,
    },
  },
  plugins: [commandEntriesAtBuildTime()],
  ssr: { noExternal: ['zod'] },
  logLevel: 'warn',
});
