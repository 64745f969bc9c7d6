import { describe, expect, it } from 'vitest';
import { APP_ENTRY_URL, isRendererUrl } from '../../../src/main/shell/rendererOrigin';

const DEV = 'http://localhost:5173';

describe('isRendererUrl (who may call the contract and where the window may navigate)', () => {
  it('trusts the packaged renderer on app://vendesk/ and nothing else when there is no dev server', () => {
    expect(isRendererUrl(APP_ENTRY_URL)).toBe(true);
    expect(isRendererUrl('app://vendesk/index.html#/settings')).toBe(true);
    expect(isRendererUrl('app://vendesk/')).toBe(true);
  });

  it.each([
    'app://vendesk.evil.example/index.html',
    'app://evil/index.html',
    'app://vendesk@evil/index.html',
    'app://user:pw@vendesk/index.html',
    'file:///opt/vendesk/out/renderer/index.html',
    'file:///home/user/Downloads/renderer/index.html',
    'http://localhost:5173/',
    'https://vendesk/index.html',
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'not a url',
  ])('refuses %s in the packaged app', (url) => {
    expect(isRendererUrl(url)).toBe(false);
  });

  it('in development trusts the dev server origin, whatever the path or route', () => {
    expect(isRendererUrl('http://localhost:5173/', DEV)).toBe(true);
    expect(isRendererUrl('http://localhost:5173/#/transactions', DEV)).toBe(true);
    expect(isRendererUrl('http://LOCALHOST:5173/index.html', DEV)).toBe(true);
  });

  it.each([
    // Each of these starts with the dev server's address, or looks like it, but is another origin.
    'http://localhost:5173@evil.example/',
    'http://localhost:5173:pw@evil.example/',
    'http://localhost:5173.evil.example/',
    'http://localhost:51730/',
    'http://localhost:5173%2F@evil.example/',
    'https://localhost:5173/',
    'http://127.0.0.1:5173/',
    'http://evil.example/?http://localhost:5173/',
    'http://evil.example/#http://localhost:5173/',
    'http://user@localhost:5173/',
    'app://vendesk/index.html',
  ])('refuses %s in development', (url) => {
    expect(isRendererUrl(url, DEV)).toBe(false);
  });

  it('trusts nothing when the dev server address is malformed', () => {
    expect(isRendererUrl('http://localhost:5173/', 'localhost:5173')).toBe(false);
    expect(isRendererUrl('javascript:1', 'javascript:1')).toBe(false);
  });
});
