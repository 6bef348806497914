// The campaigns grid of the open account, read from the local cache page by page: only the pages
// the grid shows are fetched, so 100,000 cached rows cost what one screen costs. Every change of
// account, sort, filter or search starts a new generation; answers of an older one are dropped.
// Sort, status filter and search are the account's own (view-store): switching accounts restores
// that account's, and every change is saved so a restart finds them again.
// Switching back to an account shows at once the first page it showed before (kept per account,
// with its total) and reads it again meanwhile; an account not opened yet has its first page read
// ahead (prefetch) when the pointer or the keyboard's focus comes to it, or when it is one keystroke
// away (Ctrl/Cmd+1..9), so its first opening does not wait for the cache either. The pages kept of
// the open account are bounded, so a long scroll through a million rows does not keep every page it passed.
// The total is asked apart (campaigns.count) beside the first page, never with a page: counting a
// common word's matches takes ~300 ms at 1,000,000 campaigns, its first page ~1 ms (issue #29).
// Until the count comes the grid holds the rows read so far and, while the last one read was a
// full page, one page more to scroll into (gridRowCount).
import { create } from 'zustand';
import { SORTABLE_CAMPAIGN_FIELDS, type SortableCampaignField } from '../../shared/domain/campaign';
import type { CampaignRecord } from '../../shared/ipc/contract';
import { call, messageOf } from '../lib/api';
import { pagesOf } from '../lib/virtual-range';
import { useViews } from './view-store';
import { useWorkspace } from './workspace-store';
import { sameAccount, type AccountRef } from '../../shared/domain/account';

export const PAGE_SIZE = 200;
/** Pages of the open account kept in memory; beyond it the pages farthest from the rows in view go. */
export const KEPT_PAGES = 50;
/** Accounts whose first page is kept for the switch back. */
const KEPT_ACCOUNTS = 16;

export interface SortSpec {
  field: string;
  direction: 'asc' | 'desc';
}

export interface CampaignsState {
  account: AccountRef | null;
  sort: SortSpec | null;
  status: string | null;
  text: string;
  /** How many campaigns match; null until the count of a new query comes. */
  total: number | null;
  /** Rows known to exist while the total is not: the end of the farthest full page read. */
  seen: number;
  syncedAt: number | null;
  pages: Record<number, CampaignRecord[]>;
  generation: number;
  loading: boolean;
  loadedOnce: boolean;
  error: string | null;
  selectedId: string | null;
  selectedRow: CampaignRecord | null;
  /** Rows picked for copy and bulk work (click, Ctrl/Cmd+click, Shift+click), by id. */
  picked: Record<string, CampaignRecord>;
  /** Every campaign matching the filter is picked, loaded or not. */
  allPicked: boolean;
  /** Where a Shift+click range starts. */
  anchor: number | null;
  pick(index: number, row: CampaignRecord, how: 'only' | 'toggle' | 'range'): void;
  pickAll(): void;
  clearPicks(): void;
  setAccount(ref: AccountRef | null): void;
  toggleSort(field: string): void;
  setStatus(status: string | null): void;
  setText(text: string): void;
  /** The grid shows rows [start, end): fetch the pages it needs. */
  ensureRange(start: number, end: number): void;
  /** The cache changed (a sync finished): refetch what is on screen, keeping it visible meanwhile. */
  refresh(): void;
  /**
   * Reads ahead the first page an account would open on (its saved sort, filter and search), kept
   * as if the account had been left, unless one is kept already. `campaignCount` (accounts.list's)
   * is its total when the saved view filters nothing.
   */
  prefetch(ref: AccountRef, campaignCount: number | null): void;
  select(row: CampaignRecord | null): void;
}

const isSortable = (f: string): f is SortableCampaignField => (SORTABLE_CAMPAIGN_FIELDS as readonly string[]).includes(f);

/**
 * The sort as campaigns.query takes it: only fields the cache can sort on. A saved view is plain
 * text and may name a field an older or newer version sorted on; that one is left out (by name).
 */
export function sortArg(sort: SortSpec | null): { sort?: { field: SortableCampaignField; direction: 'asc' | 'desc' } } {
  return sort && isSortable(sort.field) ? { sort: { field: sort.field, direction: sort.direction } } : {};
}

export function rowAt(pages: Record<number, CampaignRecord[]>, index: number): CampaignRecord | undefined {
  return pages[Math.floor(index / PAGE_SIZE)]?.[index % PAGE_SIZE];
}

/**
 * The pages with `page` added, and without the farthest from the rows [start, end) beyond
 * `KEPT_PAGES`. The first page always stays: it is what the account shows at once when the person
 * comes back to it (leave) or presses Home. Dropped after a long fling, it made the first switch
 * back to a 1,000,000-campaign account wait for the cache (116 ms instead of ~30).
 */
export function keepPages(
  pages: Record<number, CampaignRecord[]>,
  page: number,
  rows: CampaignRecord[],
  range: { start: number; end: number },
): Record<number, CampaignRecord[]> {
  const next = { ...pages, [page]: rows };
  const others = Object.keys(next)
    .map(Number)
    .filter((p) => p !== page && p !== 0);
  if (others.length < KEPT_PAGES) return next;
  const from = Math.floor(range.start / PAGE_SIZE);
  const to = Math.floor(Math.max(range.start, range.end - 1) / PAGE_SIZE);
  const distance = (p: number) => (p < from ? from - p : p > to ? p - to : 0);
  others.sort((a, b) => distance(b) - distance(a));
  for (const p of others.slice(0, others.length + 1 - KEPT_PAGES)) delete next[p];
  return next;
}

/**
 * How many rows the grid holds: the total once counted; before that the rows known to exist and,
 * if there are any, a page more (the last one read was full), whose rows show as loading until
 * scrolling there reads them.
 */
export function gridRowCount(s: Pick<CampaignsState, 'total' | 'seen'>): number {
  if (s.total !== null) return s.total;
  return s.seen > 0 ? s.seen + PAGE_SIZE : 0;
}

/**
 * What a page read tells of the list's length: a full one that rows reach at least its end; a
 * short one (at or past every full page read) that the list ends there, which is its total.
 */
export function reachOf(s: Pick<CampaignsState, 'total' | 'seen'>, page: number, rows: number): Pick<CampaignsState, 'total' | 'seen'> {
  const end = page * PAGE_SIZE + rows;
  if (rows === PAGE_SIZE) return { total: s.total, seen: Math.max(s.seen, end) };
  return end >= s.seen ? { total: end, seen: s.seen } : s;
}

/** What an account showed when it was left: its query, its first page and its total (null: not counted yet). */
interface LeftView {
  query: string;
  rows: CampaignRecord[];
  total: number | null;
  syncedAt: number | null;
  /**
   * How many campaigns the accounts list said the account held then: kept rows are shown only
   * while it says the same (an account removed and added again holds none of them).
   */
  campaignCount: number | null;
}

/** How many campaigns the accounts list says the account holds (null: not listed). */
const listedCount = (ref: AccountRef): number | null =>
  useWorkspace.getState().accounts.find((a) => sameAccount(a, ref))?.campaignCount ?? null;

const queryKey = (s: { sort: SortSpec | null; status: string | null; text: string }) =>
  JSON.stringify([sortArg(s.sort), s.status, s.text.trim()]);
const refKey = (ref: AccountRef) => `${ref.profileId}\u0000${ref.accountId}`;

/**
 * How long the search text must stay unchanged before it is saved with the account's view: a
 * search is asked at each keystroke, but saving each one would write the view file per key.
 */
export const TEXT_SAVE_DELAY_MS = 400;

export const useCampaigns = create<CampaignsState>()((set, get) => {
  const inFlight = new Set<string>();
  /** The save of a typed text that waits for the typing to pause, and the account it belongs to. */
  let textSave: { timer: ReturnType<typeof setTimeout>; save: () => void } | null = null;
  const flushTextSave = () => {
    if (textSave === null) return;
    clearTimeout(textSave.timer);
    const { save } = textSave;
    textSave = null;
    save();
  };
  let lastRange = { start: 0, end: PAGE_SIZE };
  /** Per account left, most recently left last. */
  const left = new Map<string, LeftView>();

  /** First pages being read ahead (prefetch), by account. */
  const prefetching = new Set<string>();

  /** The list the open query shows (campaigns.count's question; a page adds offset and limit). */
  const listOf = (s: Pick<CampaignsState, 'sort' | 'status' | 'text'>, account: AccountRef) => ({
    profileId: account.profileId,
    accountId: account.accountId,
    ...sortArg(s.sort),
    ...(s.status ? { statuses: [s.status] } : {}),
    ...(s.text.trim() ? { text: s.text.trim() } : {}),
  });

  async function fetchPage(page: number, generation: number): Promise<void> {
    const s = get();
    if (!s.account) return;
    const key = `${generation}:${page}`;
    if (inFlight.has(key)) return;
    inFlight.add(key);
    set({ loading: true });
    try {
      const out = await call('campaigns.records', {
        ...listOf(s, s.account),
        offset: page * PAGE_SIZE,
        limit: PAGE_SIZE,
        withTotal: false,
      });
      if (get().generation !== generation) return;
      const selectedId = get().selectedId;
      const refreshedSelection = selectedId ? out.rows.find((r) => r.id === selectedId) : undefined;
      set({
        pages: keepPages(get().pages, page, out.rows, lastRange),
        ...reachOf(get(), page, out.rows.length),
        syncedAt: out.syncedAt,
        loadedOnce: true,
        error: null,
        ...(refreshedSelection ? { selectedRow: refreshedSelection } : {}),
      });
    } catch (err) {
      if (get().generation === generation) set({ error: messageOf(err), loadedOnce: true });
    } finally {
      inFlight.delete(key);
      if (get().generation === generation && inFlight.size === 0) set({ loading: false });
    }
  }

  /** The total of the generation's list, asked beside its first page and never holding it. */
  async function fetchCount(generation: number): Promise<void> {
    const s = get();
    if (!s.account) return;
    try {
      const { total } = await call('campaigns.count', listOf(s, s.account));
      if (get().generation === generation) set({ total });
    } catch (err) {
      // An older generation's count may fail as superseded by this one's: only this one's is told.
      if (get().generation === generation) set({ error: messageOf(err) });
    }
  }

  function remember(patch: { sort?: SortSpec | null; status?: string | null; text?: string }): void {
    const ref = get().account;
    if (ref) useViews.getState().patchAccount(ref, patch);
  }

  /** A new query: drop the pages (or show the ones given, read again meanwhile), start from the top. */
  function restart(patch: Partial<CampaignsState>): void {
    const generation = get().generation + 1;
    set({ pages: {}, total: null, seen: 0, ...patch, generation, loading: false, error: null, picked: {}, allPicked: false, anchor: null });
    lastRange = { start: 0, end: PAGE_SIZE };
    void fetchPage(0, generation);
    void fetchCount(generation);
  }

  /** Keeps what an account shows first, for the next switch to it; the least recently kept go. */
  function keepFirst(ref: AccountRef, view: LeftView): void {
    const key = refKey(ref);
    left.delete(key);
    left.set(key, view);
    if (left.size > KEPT_ACCOUNTS) left.delete(left.keys().next().value!);
  }

  /** Keeps the first page of the account being left, for the switch back. */
  function leave(): void {
    const s = get();
    const first = s.pages[0];
    if (!s.account || !first || !s.loadedOnce) return;
    keepFirst(s.account, { query: queryKey(s), rows: first, total: s.total, syncedAt: s.syncedAt, campaignCount: listedCount(s.account) });
  }

  /** The sort, filter and search an account opens on: its saved view's. */
  const openingQuery = (ref: AccountRef) => {
    const view = useViews.getState().accountView(ref);
    return { sort: view?.sort ?? null, status: view?.status ?? null, text: view?.text ?? '' };
  };

  async function prefetchFirst(ref: AccountRef, campaignCount: number | null): Promise<void> {
    const key = refKey(ref);
    const query = openingQuery(ref);
    const asked = queryKey(query);
    // Kept already, for this query and this many campaigns: nothing to read.
    const fresh = () => {
      const kept = left.get(key);
      return kept !== undefined && kept.query === asked && kept.campaignCount === campaignCount;
    };
    if (sameAccount(get().account, ref) || fresh() || prefetching.has(key)) return;
    prefetching.add(key);
    try {
      const out = await call('campaigns.records', { ...listOf(query, ref), offset: 0, limit: PAGE_SIZE, withTotal: false });
      // Opened meanwhile (its own read shows it), left meanwhile (that page is as new), or no rows
      // yet (a first refresh still loading it): nothing worth showing ahead of the cache.
      if (sameAccount(get().account, ref) || fresh() || out.rows.length === 0) return;
      const unfiltered = query.status === null && query.text.trim() === '';
      keepFirst(ref, { query: asked, rows: out.rows, total: unfiltered ? campaignCount : null, syncedAt: out.syncedAt, campaignCount });
    } catch {
      // Read ahead only: the switch reads the page itself, and says what fails then.
    } finally {
      prefetching.delete(key);
    }
  }

  return {
    account: null,
    sort: null,
    status: null,
    text: '',
    total: null,
    seen: 0,
    syncedAt: null,
    pages: {},
    generation: 0,
    loading: false,
    loadedOnce: false,
    error: null,
    selectedId: null,
    selectedRow: null,
    picked: {},
    allPicked: false,
    anchor: null,
    setAccount(ref) {
      const cur = get().account;
      if (sameAccount(cur, ref)) return;
      // The text typed for the account being left is saved for it now.
      flushTextSave();
      leave();
      const query = ref ? openingQuery(ref) : { sort: null, status: null, text: '' };
      const before = ref ? left.get(refKey(ref)) : undefined;
      const shown =
        before && ref && before.query === queryKey(query) && before.campaignCount === listedCount(ref)
          ? {
              pages: { 0: before.rows },
              ...reachOf({ total: before.total, seen: 0 }, 0, before.rows.length),
              syncedAt: before.syncedAt,
              loadedOnce: true,
            }
          : { loadedOnce: false, syncedAt: null };
      restart({ account: ref, ...query, selectedId: null, selectedRow: null, ...shown });
    },
    toggleSort(field) {
      const cur = get().sort;
      const next: SortSpec | null =
        cur?.field !== field ? { field, direction: 'asc' } : cur.direction === 'asc' ? { field, direction: 'desc' } : null;
      restart({ sort: next });
      remember({ sort: next });
    },
    setStatus(status) {
      if (status === get().status) return;
      restart({ status });
      remember({ status });
    },
    setText(text) {
      if (text === get().text) return;
      restart({ text });
      const ref = get().account;
      if (textSave !== null) clearTimeout(textSave.timer);
      const save = () => {
        if (ref) useViews.getState().patchAccount(ref, { text });
      };
      textSave = { save, timer: setTimeout(flushTextSave, TEXT_SAVE_DELAY_MS) };
    },
    ensureRange(start, end) {
      lastRange = { start, end };
      const s = get();
      const { pages, generation, loadedOnce } = s;
      const limit = loadedOnce ? Math.min(end, gridRowCount(s)) : end;
      for (const p of pagesOf(start, limit, PAGE_SIZE)) if (!pages[p]) void fetchPage(p, generation);
    },
    refresh() {
      const generation = get().generation + 1;
      const keep = new Set(pagesOf(lastRange.start, Math.max(lastRange.end, 1), PAGE_SIZE));
      keep.add(0);
      // The total shown stays until the new count comes (a sync changes a few rows, seldom many).
      set({ generation });
      for (const p of keep) void fetchPage(p, generation);
      void fetchCount(generation);
      // Pages off screen are stale now; they are fetched again when scrolled to.
      const pages = get().pages;
      set({ pages: Object.fromEntries(Object.entries(pages).filter(([k]) => keep.has(Number(k)))) });
    },
    prefetch(ref, campaignCount) {
      void prefetchFirst(ref, campaignCount);
    },
    select(row) {
      set({ selectedId: row?.id ?? null, selectedRow: row });
    },
    pick(index, row, how) {
      const { picked, anchor, pages } = get();
      if (how === 'only') {
        set({ picked: { [row.id]: row }, allPicked: false, anchor: index });
      } else if (how === 'toggle') {
        const next = { ...picked };
        if (next[row.id]) delete next[row.id];
        else next[row.id] = row;
        set({ picked: next, allPicked: false, anchor: index });
      } else {
        // A range covers the rows between the anchor and here; rows of pages not loaded yet are
        // loaded first by scrolling, which every range made by the pointer has done.
        const from = Math.min(anchor ?? index, index);
        const to = Math.max(anchor ?? index, index);
        const next: Record<string, CampaignRecord> = {};
        for (let i = from; i <= to; i++) {
          const r = rowAt(pages, i);
          if (r) next[r.id] = r;
        }
        set({ picked: next, allPicked: false });
      }
      set({ selectedId: row.id, selectedRow: row });
    },
    pickAll() {
      set({ allPicked: true, picked: {} });
    },
    clearPicks() {
      set({ allPicked: false, picked: {}, anchor: null });
    },
  };
});
