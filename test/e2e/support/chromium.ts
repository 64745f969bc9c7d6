import fs from 'node:fs';

/** Debian's Chromium (or the one named by CHROMIUM_PATH); scripts/test.mjs makes sure one exists. */
export function chromiumExecutable(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
  return candidates.find((c): c is string => !!c && fs.existsSync(c));
}
