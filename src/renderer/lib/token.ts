// Browser mode's per-run token: it arrives in the address fragment (never sent to any server, so
// never in a log), is kept in sessionStorage for reloads of this tab, and is removed from the
// address bar so it does not end up in bookmarks or screenshots.
const KEY = 'campaign-desk.token';
const TOKEN_IN_HASH = /(?:^#|&)token=([A-Za-z0-9_-]{16,200})(?:&|$)/;

export interface TokenEnv {
  location: Pick<Location, 'hash' | 'pathname' | 'search'>;
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  history: Pick<History, 'replaceState'>;
}

export function readToken(env: TokenEnv): string | null {
  const match = TOKEN_IN_HASH.exec(env.location.hash);
  if (match) {
    env.storage.setItem(KEY, match[1]);
    env.history.replaceState(null, '', `${env.location.pathname}${env.location.search}`);
    return match[1];
  }
  return env.storage.getItem(KEY);
}
