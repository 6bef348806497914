import { describe, expect, it } from 'vitest';
import { readToken, type TokenEnv } from '../../../src/renderer/lib/token';

function env(hash: string): TokenEnv & { stored: Map<string, string>; replaced: string[] } {
  const stored = new Map<string, string>();
  const replaced: string[] = [];
  return {
    location: { hash, pathname: '/', search: '' },
    storage: { getItem: (k) => stored.get(k) ?? null, setItem: (k, v) => void stored.set(k, v) },
    history: { replaceState: (_s, _t, url) => void replaced.push(String(url)) },
    stored,
    replaced,
  };
}

describe('browser-mode token in the page', () => {
  const token = 'a'.repeat(43);

  it('takes the token from the fragment, keeps it for reloads, and removes it from the address bar', () => {
    const e = env(`#token=${token}`);
    expect(readToken(e)).toBe(token);
    expect([...e.stored.values()]).toEqual([token]);
    expect(e.replaced).toEqual(['/']);
  });

  it('falls back to the kept token after a reload, and to none at all', () => {
    const e = env('');
    expect(readToken(e)).toBeNull();
    e.stored.set('campaign-desk.token', token);
    expect(readToken(e)).toBe(token);
  });

  it('ignores a fragment that is not a token', () => {
    expect(readToken(env('#token=<script>'))).toBeNull();
    expect(readToken(env('#nottoken=abcdefabcdefabcdefabcdef'))).toBeNull();
  });
});
