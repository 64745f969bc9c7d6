import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appAssetPath } from '../../../src/main/shell/appProtocol';

const ROOT = path.resolve('/opt/vendesk/out/renderer');

describe('appAssetPath (app://vendesk/ serves the build folder and nothing else)', () => {
  it('maps the app and its assets into the build folder; / is index.html', () => {
    expect(appAssetPath(ROOT, 'app://vendesk/index.html')).toBe(path.join(ROOT, 'index.html'));
    expect(appAssetPath(ROOT, 'app://vendesk/')).toBe(path.join(ROOT, 'index.html'));
    expect(appAssetPath(ROOT, 'app://vendesk')).toBe(path.join(ROOT, 'index.html'));
    expect(appAssetPath(ROOT, 'app://vendesk/assets/index-abc.js')).toBe(path.join(ROOT, 'assets', 'index-abc.js'));
    expect(appAssetPath(ROOT, 'app://vendesk/assets/My%20Font.woff2?v=1#x')).toBe(path.join(ROOT, 'assets', 'My Font.woff2'));
  });

  it.each([
    'app://vendesk/../../../etc/passwd',
    'app://vendesk/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
    'app://vendesk/assets/..%2f..%2f..%2fetc%2fpasswd',
    'app://vendesk/%2E%2E%2F%2E%2E%2Fpackage.json',
    'app://vendesk/assets/..%5c..%5c..%5cpackage.json',
    'app://vendesk/..\\..\\package.json',
    'app://vendesk//etc/passwd',
  ])('never leaves the build folder for %s', (url) => {
    const file = appAssetPath(ROOT, url);
    if (file !== null) expect(file.startsWith(ROOT + path.sep)).toBe(true);
    expect(file).not.toBe(path.resolve('/etc/passwd'));
  });

  it.each([
    'app://vendesk/index.html%00.js',
    'app://vendesk/%E0%A4%A',
    'app://evil/index.html',
    'app://vendesk.evil/index.html',
    'app://user@vendesk/index.html',
    'file:///opt/vendesk/out/renderer/index.html',
    'http://vendesk/index.html',
    'not a url',
  ])('refuses %s', (url) => {
    expect(appAssetPath(ROOT, url)).toBeNull();
  });

  it('refuses the backslash, a path separator on Windows', () => {
    expect(appAssetPath(ROOT, 'app://vendesk/assets%5C..%5C..%5Csecret.txt')).toBeNull();
  });
});
