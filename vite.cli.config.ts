import { builtinModules } from 'node:module';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import { onwarn } from './electron.vite.config';

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
  ssr: { noExternal: ['zod'] },
  logLevel: 'warn',
});
