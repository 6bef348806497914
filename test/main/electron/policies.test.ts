import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createGuards, tokenMatches } from '../../../src/main/browser-mode/guards';
import { isJsonContentType } from '../../../src/main/browser-mode/body';
import { isSafeExternalUrl } from '../../../src/main/web/external-urls';
import { readStaticFile, resolveStaticPath } from '../../../src/main/web/static-files';
import { fitToDisplays } from '../../../src/main/electron/window-state';

describe('external links', () => {
  it('allows only https/http with a host and no credentials, and mailto', () => {
    for (const ok of ['https://example.com/a?b=c', 'http://localhost:3000/', 'mailto:someone@example.com'])
      expect(isSafeExternalUrl(ok), ok).toBe(true);
    for (const bad of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,x',
      'smb://host/share',
      'app://desk/',
      'https://user:pw@example.com/',
      'ms-settings:',
      'vscode://x',
      'not a url',
      `https://example.com/${'a'.repeat(2001)}`,
    ]) {
      expect(isSafeExternalUrl(bad), bad).toBe(false);
    }
  });
});

describe('static files', () => {
  const root = mkdtempSync(join(tmpdir(), 'desk-static-'));
  const outside = mkdtempSync(join(tmpdir(), 'desk-outside-'));
  writeFileSync(join(root, 'index.html'), 'index');
  writeFileSync(join(outside, 'secret.txt'), 'secret');
  symlinkSync(join(outside, 'secret.txt'), join(root, 'link.txt'));
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('maps / to index.html and refuses traversal, encoded separators, backslashes and NUL', () => {
    expect(resolveStaticPath(root, '/')).toBe(join(root, 'index.html'));
    for (const p of ['/../x', '/a/../../x', '/%2e%2e/x', '/..%2fx', '/..\\x', '/%5c..%5cx', '/a%00.html', '/%E0%A4%A', 'x']) {
      expect(resolveStaticPath(root, p), p).toBeNull();
    }
  });

  it('refuses a symlink that points outside the root', async () => {
    expect(await readStaticFile(root, '/link.txt')).toBeNull();
    expect((await readStaticFile(root, '/index.html'))?.contentType).toBe('text/html; charset=utf-8');
  });
});

describe('browser-mode guards', () => {
  const g = createGuards(4321);
  it('accepts only our own host and origin', () => {
    expect(g.hostAllowed('127.0.0.1:4321')).toBe(true);
    expect(g.hostAllowed('LOCALHOST:4321')).toBe(true);
    for (const h of [undefined, '127.0.0.1', '127.0.0.1:4322', 'evil.example:4321', '[::1]:4321', '127.0.0.1:4321.evil'])
      expect(g.hostAllowed(h), String(h)).toBe(false);
    expect(g.originAllowed(undefined)).toBe(true);
    expect(g.originAllowed('http://localhost:4321')).toBe(true);
    for (const o of ['null', 'http://127.0.0.1:4322', 'https://127.0.0.1:4321', 'http://evil.example'])
      expect(g.originAllowed(o), o).toBe(false);
  });

  it('compares tokens whatever their length, and refuses empty or absent ones', () => {
    expect(tokenMatches('abc', 'abc')).toBe(true);
    for (const t of ['', undefined, null, 'ab', 'abcd', 'ABC']) expect(tokenMatches('abc', t)).toBe(false);
  });

  it('accepts JSON content types only', () => {
    expect(isJsonContentType('application/json')).toBe(true);
    expect(isJsonContentType('Application/JSON; charset=UTF-8')).toBe(true);
    for (const t of [undefined, 'text/plain', 'application/json-patch+json', 'application/json; boundary=x', 'multipart/form-data'])
      expect(isJsonContentType(t), String(t)).toBe(false);
  });
});

describe('window placement', () => {
  const screen = [{ x: 0, y: 0, width: 1920, height: 1080 }];
  it('keeps a position whose title strip is on a display', () => {
    expect(fitToDisplays({ x: 100, y: 100, width: 1200, height: 800, maximized: false }, screen)).toEqual({
      x: 100,
      y: 100,
      width: 1200,
      height: 800,
      maximized: false,
    });
  });
  it('drops a position left on an unplugged monitor and clamps the size to the largest display', () => {
    expect(fitToDisplays({ x: 2500, y: 100, width: 3000, height: 2000, maximized: true }, screen)).toEqual({
      width: 1920,
      height: 1080,
      maximized: true,
    });
  });
  it('keeps a position on a second display', () => {
    const two = [...screen, { x: 1920, y: 0, width: 2560, height: 1440 }];
    expect(fitToDisplays({ x: 2500, y: 100, width: 1200, height: 800, maximized: false }, two)).toMatchObject({ x: 2500, y: 100 });
  });
});
