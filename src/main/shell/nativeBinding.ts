/**
 * better-sqlite3 is built twice: for Node (tests, web shell, CLI: node_modules' own build) and
 * for Electron's ABI (scripts/electronNative.ts writes build/electron-native/better_sqlite3.node
 * where Electron is installed). The Electron shell loads its own build when it exists.
 */
import fs from 'node:fs';
import path from 'node:path';

export const ELECTRON_NATIVE_DIR = path.join('build', 'electron-native');

export function electronNativeBinding(appPath: string): string | undefined {
  const file = path.join(appPath, ELECTRON_NATIVE_DIR, 'better_sqlite3.node');
  return fs.existsSync(file) ? file : undefined;
}
