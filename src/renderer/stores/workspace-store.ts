// Connections (profiles), their accounts, and which account is open. The tree and the switcher
// read from here; the selection drives every tab.
import { create } from 'zustand';
import { sameAccount, type AccountRef } from '../../shared/domain/account';
import type { Account, ChannelOutput, Profile } from '../../shared/ipc/contract';
import { call, messageOf } from '../lib/api';

export interface WorkspaceState {
  info: ChannelOutput<'app.info'> | null;
  profiles: Profile[];
  accounts: Account[];
  selected: AccountRef | null;
  loaded: boolean;
  error: string | null;
  /** Reads the app info, the connections and the accounts again. */
  load(): Promise<void>;
  /** Reads again only the parts named (what an event says changed). */
  reload(parts: { info?: boolean; profiles?: boolean; accounts?: boolean }): Promise<void>;
  select(ref: AccountRef): void;
  setConnection(profileId: string, connection: Profile['connection']): void;
}

/** Accounts in tree order: per profile, networks followed by their members, then the rest. */
export function treeOrder(profiles: Profile[], accounts: Account[]): { profile: Profile; rows: { account: Account; depth: number }[] }[] {
  return profiles.map((profile) => {
    const mine = accounts.filter((a) => a.profileId === profile.id);
    const ids = new Set(mine.map((a) => a.accountId));
    const rows: { account: Account; depth: number }[] = [];
    for (const a of mine) {
      if (a.networkId !== null && ids.has(a.networkId)) continue; // shown under its network
      rows.push({ account: a, depth: 0 });
      if (a.type === 'NETWORK') {
        for (const m of mine.filter((x) => x.networkId === a.accountId)) rows.push({ account: m, depth: 1 });
      }
    }
    return { profile, rows };
  });
}

/** How many reloads asked for each part, and the newest of them whose answer is in the store. */
const issued = { info: 0, profiles: 0, accounts: 0 };
const stored = { info: 0, profiles: 0, accounts: 0 };

export const useWorkspace = create<WorkspaceState>()((set, get) => ({
  info: null,
  profiles: [],
  accounts: [],
  selected: null,
  loaded: false,
  error: null,
  load() {
    return get().reload({ info: true, profiles: true, accounts: true });
  },
  async reload(parts) {
    try {
      // Only what changed is asked for: profiles.list reads every connection's sign-in state and
      // accounts.list every account's counts, and data events come up to once a second. Reloads
      // overlap (an event and a dialog's own reload), so each part keeps only its newest answer,
      // and a part not asked for is read when the answer is stored, never from before the wait:
      // an older snapshot would undo what an overlapping reload just brought (a restored
      // connection vanishing from the sidebar).
      const asked = {
        info: parts.info ? ++issued.info : 0,
        profiles: parts.profiles ? ++issued.profiles : 0,
        accounts: parts.accounts ? ++issued.accounts : 0,
      };
      const [info, profiles, accounts] = await Promise.all([
        parts.info ? call('app.info', {}) : null,
        parts.profiles ? call('profiles.list', {}) : null,
        parts.accounts ? call('accounts.list', {}) : null,
      ]);
      const newest = <T>(part: keyof typeof issued, answer: T | null, kept: T): T => {
        if (answer === null || asked[part] < stored[part]) return kept;
        stored[part] = asked[part];
        return answer;
      };
      const now = get();
      const next = {
        info: newest('info', info, now.info),
        profiles: newest('profiles', profiles, now.profiles),
        accounts: newest('accounts', accounts, now.accounts),
      };
      const current = now.selected;
      const stillThere = current && next.accounts.some((a) => sameAccount(a, current));
      let selected = stillThere ? current : null;
      if (!selected) {
        const first = treeOrder(next.profiles, next.accounts).flatMap((g) => g.rows)[0]?.account;
        selected = first ? { profileId: first.profileId, accountId: first.accountId } : null;
      }
      set({ ...next, selected, loaded: true, error: null });
    } catch (err) {
      set({ loaded: true, error: messageOf(err) });
    }
  },
  select(ref) {
    if (!sameAccount(get().selected, ref)) set({ selected: ref });
  },
  setConnection(profileId, connection) {
    set({ profiles: get().profiles.map((p) => (p.id === profileId ? { ...p, connection } : p)) });
  },
}));

export function selectedAccount(s: Pick<WorkspaceState, 'accounts' | 'selected'>): Account | null {
  const sel = s.selected;
  return sel ? (s.accounts.find((a) => sameAccount(a, sel)) ?? null) : null;
}
