// The window's Content-Security-Policy: images only from the app or as data: URLs (the push preview
// shows images main fetched and checked), and docs/security.md states the policy the app sends.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_CSP, buildCsp } from '../../../src/main/web/csp';

const directive = (csp: string, name: string) => csp.split('; ').find((d) => d.startsWith(`${name} `));

describe('CSP', () => {
  it('lets images come only from the app itself or data: URLs, never a third-party https host', () => {
    expect(directive(APP_CSP, 'img-src')).toBe("img-src 'self' data:");
    expect(directive(buildCsp({ devServer: true }), 'img-src')).toBe("img-src 'self' data:");
    expect(APP_CSP).not.toMatch(/https:/);
  });

  it('is the policy docs/security.md describes', () => {
    const doc = readFileSync(join(__dirname, '../../../docs/security.md'), 'utf8');
    const m = /Every response carries a strict CSP: `([^`]+)`/.exec(doc);
    expect(m, 'docs/security.md names the CSP').not.toBeNull();
    expect(m![1].replace(/\s+/g, ' ')).toBe(APP_CSP);
  });
});
