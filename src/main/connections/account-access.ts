// Each account's own state, apart from its connection's: the service refused it with 403 (access
// withdrawn, or never granted to these credentials) on a read or a write. Shown as "No access" with
// the service's words and date until a call about the account succeeds again. Kept in the settings
// table (one small JSON value), so it survives a restart instead of showing the account as fine.
import type { SettingsRepo } from '../store';

export interface NoAccess {
  /** The service's words (redacted, one line). */
  words: string;
  /** When it was refused (ms, this computer's clock). */
  at: number;
}

export interface AccountAccessDeps {
  settings: SettingsRepo;
  now(): number;
  /** The account's state changed: tell the window (accounts changed) and the activity log. */
  changed(profileId: string, accountId: string, noAccess: NoAccess | null): void;
}

/** The activity log's line when an account's access changed. */
export function accessChangeWords(accountId: string, noAccess: NoAccess | null): string {
  return noAccess
    ? `Account ${accountId}: no access (${noAccess.words}). Ask the service to grant these credentials access again.`
    : `Account ${accountId}: access is back.`;
}

const keyOf = (profileId: string, accountId: string) => `${profileId}/${accountId}`;

export class AccountAccess {
  readonly #deps: AccountAccessDeps;
  /** A copy of the stored value: answers come often and must not each read the database. */
  #known: Record<string, NoAccess>;

  constructor(deps: AccountAccessDeps) {
    this.#deps = deps;
    this.#known = { ...deps.settings.get('accountAccess') };
  }

  get(profileId: string, accountId: string): NoAccess | null {
    return this.#known[keyOf(profileId, accountId)] ?? null;
  }

  refused(profileId: string, accountId: string, words: string): void {
    const key = keyOf(profileId, accountId);
    if (this.#known[key]?.words === words) return;
    const entry = { words, at: this.#deps.now() };
    this.#save({ ...this.#known, [key]: entry });
    this.#deps.changed(profileId, accountId, entry);
  }

  answered(profileId: string, accountId: string): void {
    const key = keyOf(profileId, accountId);
    if (!(key in this.#known)) return;
    const { [key]: _cleared, ...rest } = this.#known;
    this.#save(rest);
    this.#deps.changed(profileId, accountId, null);
  }

  /**
   * The account (or, without one, every account of the connection) was removed: its mark goes too,
   * so the settings keep nothing of an account the app no longer has.
   */
  forget(profileId: string, accountId?: string): void {
    const gone = (key: string) => (accountId === undefined ? key.startsWith(`${profileId}/`) : key === keyOf(profileId, accountId));
    if (!Object.keys(this.#known).some(gone)) return;
    this.#save(Object.fromEntries(Object.entries(this.#known).filter(([key]) => !gone(key))));
  }

  #save(next: Record<string, NoAccess>): void {
    this.#known = next;
    try {
      this.#deps.settings.set('accountAccess', next);
    } catch {
      // Remembered for this run; the next refusal or success writes it again.
    }
  }
}
