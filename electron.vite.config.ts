import react from '@vitejs/plugin-react';
import { defineConfig, externalizeDepsPlugin } from 'electron-vite';
import { resolve } from 'node:path';
import type { Rollup } from 'vite';

/**
 * Warnings about other packages' code that no one here can act on stay out of the terminal: a
 * library's misplaced `@__PURE__` comment (zod) or its "use client" line (Mantine). Every other
 * warning is still printed.
 */
export function onwarn(warning: Rollup.RollupLog, warn: (w: Rollup.RollupLog) => void): void {
  const inDependency = (warning.id ?? warning.loc?.file ?? '').includes('node_modules');
  if (inDependency && (warning.code === 'INVALID_ANNOTATION' || warning.code === 'MODULE_LEVEL_DIRECTIVE')) return;
  warn(warning);
}

export default defineConfig({
  main: {
    plugins: [externalizeDepsPlugin()],
    build: { rollupOptions: { input: { index: resolve(__dirname, 'src/main/index.ts') }, onwarn } },
  },
  preload: {
    plugins: [externalizeDepsPlugin()],
    build: { rollupOptions: { input: { index: resolve(__dirname, 'src/preload/index.ts') }, onwarn } },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    plugins: [react()],
    build: {
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') }, onwarn },
      chunkSizeWarningLimit: 2000,
    },
  },
});
