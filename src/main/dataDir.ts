import os from 'node:os';
import path from 'node:path';

/**
 * The app data folder shared by the Electron shell (its userData), the web shell and the CLI:
 * `~/.config/vendesk` on Linux, `~/Library/Application Support/vendesk` on macOS,
 * `%APPDATA%\vendesk` on Windows. `--data-dir` or `VENDESK_DATA_DIR` override it.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.VENDESK_DATA_DIR) return path.resolve(env.VENDESK_DATA_DIR);
  if (process.platform === 'darwin') return path.join(os.homedir(), 'Library', 'Application Support', 'vendesk');
  if (process.platform === 'win32') return path.join(env.APPDATA ?? path.join(os.homedir(), 'AppData', 'Roaming'), 'vendesk');
  return path.join(env.XDG_CONFIG_HOME ?? path.join(os.homedir(), '.config'), 'vendesk');
}
