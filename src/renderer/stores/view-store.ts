// The window as the person left it: which account and tab were open, and per account the campaigns
// view (sort, status filter, search, chosen columns, details pane). Loaded once at start, written
// back to the settings table after every change, in order, so a restart finds the window as it was.
import { create } from 'zustand';
import type { AccountView, WindowView } from '../../shared/ipc/contract';
import { call } from '../lib/api';
import type { AccountRef } from '../../shared/domain/account';

export const DEFAULT_ACCOUNT_VIEW: AccountView = { sort: null, status: null, text: '', columns: [], detailsOpen: true };

export const viewKey = (ref: AccountRef) => `${ref.profileId}/${ref.accountId}`;

export interface ViewState {
  loaded: boolean;
  view: WindowView;
  load(): Promise<void>;
  /** The saved view of an account, or the defaults: one account's filters never leak to another. */
  accountView(ref: AccountRef): AccountView;
  patchAccount(ref: AccountRef, patch: Partial<AccountView>): void;
  setOpen(patch: Partial<Pick<WindowView, 'account' | 'tab'>>): void;
}

export const useViews = create<ViewState>()((set, get) => {
  // Saves go out one after another: a later state never lands before an earlier one.
  let chain: Promise<unknown> = Promise.resolve();
  function save(): void {
    const view = get().view;
    chain = chain.then(() => call('views.save', view)).catch(() => undefined);
  }
  return {
    loaded: false,
    view: { accounts: {} },
    async load() {
      try {
        const view = await call('views.load', {});
        set({ view, loaded: true });
      } catch {
        // Nothing saved can be read: start with the defaults rather than keep the window from opening.
        set({ loaded: true });
      }
    },
    accountView(ref) {
      return { ...DEFAULT_ACCOUNT_VIEW, ...get().view.accounts[viewKey(ref)] };
    },
    patchAccount(ref, patch) {
      const key = viewKey(ref);
      const view = get().view;
      const next = { ...DEFAULT_ACCOUNT_VIEW, ...view.accounts[key], ...patch };
      set({ view: { ...view, accounts: { ...view.accounts, [key]: next } } });
      save();
    },
    setOpen(patch) {
      const view = get().view;
      const next = { ...view, ...patch };
      if (JSON.stringify(next.account) === JSON.stringify(view.account) && next.tab === view.tab) return;
      set({ view: next });
      save();
    },
  };
});
