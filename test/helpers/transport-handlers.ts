// A handler table written for the transport tests: it is not the core, only something that
// records every call and answers with contract-valid values, so a test can prove what reached a
// handler (and that invalid input never does). The real core is exercised by the e2e suite.
import type {
  Account,
  CampaignRow,
  ChannelInput,
  ChannelName,
  DeskEventSource,
  DeskHandlers,
  EventName,
  EventPayload,
  OutboxItem,
  Profile,
} from '../../src/shared/ipc/contract';
import { DeskError } from '../../src/shared/errors';

export interface RecordedCall {
  channel: string;
  args: unknown;
}

export function sampleProfile(id = 'p1'): Profile {
  return {
    id,
    name: 'Transport test profile',
    kind: 'sandbox',
    baseUrl: 'http://127.0.0.1:1',
    authUrl: 'http://127.0.0.1:1',
    pushUrl: 'http://127.0.0.1:1',
    clientId: 'transport-client',
    flow: 'client_credentials',
    redirectUri: null,
    hasSecret: true,
    signIn: { state: 'signed_in', message: null },
    connection: 'online',
  };
}

function sampleAccount(profileId: string, accountId: string): Account {
  return { profileId, accountId, name: accountId, type: 'ADVERTISER', networkId: null, lastSyncedAt: null, campaignCount: 0, queued: 0 };
}

function sampleOutbox(id: string): OutboxItem {
  return {
    id,
    profileId: 'p1',
    accountId: 'acme',
    kind: 'create_campaign',
    summary: 'test item',
    state: 'queued',
    attempts: 0,
    lastError: null,
    fix: null,
    createdAt: 0,
    updatedAt: 0,
    nextAttemptAt: null,
  };
}

export function sampleRow(i: number): CampaignRow {
  return {
    id: String(1000 + i),
    account_id: 'acme',
    advertiser_id: 'acme',
    advertiser_name: null,
    name: `Row ${i}`,
    status: 'APPROVED',
    spent: i,
    cpc: null,
    daily_cap: null,
    spending_limit: null,
    spending_limit_model: null,
    bid_strategy: null,
    marketing_objective: null,
    pricing_model: null,
    start_date: null,
    campaign_item_type: null,
    branding_text: null,
    campaign_group_id: null,
  };
}

export interface TransportTable {
  handlers: DeskHandlers;
  calls: RecordedCall[];
  /** The one piece of state the table keeps: profiles created through it. */
  profiles: Profile[];
}

/**
 * Every handler records its call. `profiles.create` changes state (so a test can show that invalid
 * input changes nothing); `profiles.remove` throws a DeskError and `activity.list` a plain Error
 * (so a test can show how each crosses the transport).
 */
export function createTransportTable(): TransportTable {
  const calls: RecordedCall[] = [];
  const profiles: Profile[] = [];
  const rec = <T>(channel: string, args: unknown, value: T): Promise<T> => {
    calls.push({ channel, args });
    return Promise.resolve(value);
  };
  const handlers: DeskHandlers = {
    'app.info': (a) =>
      rec('app.info', a, {
        version: '0.0.0-test',
        transport: 'browser',
        secrets: { kind: 'memory', warning: null },
        demo: { available: true, removed: false },
      }),
    'profiles.list': (a) => rec('profiles.list', a, profiles),
    'profiles.create': (a) => {
      const p = { ...sampleProfile(`p${profiles.length + 1}`), name: a.name, clientId: a.clientId };
      profiles.push(p);
      // The secret deliberately rides along here: the output schema must strip it before it leaves main.
      return rec('profiles.create', a, { ...p, clientSecret: a.clientSecret } as Profile);
    },
    'profiles.remove': (a) => {
      calls.push({ channel: 'profiles.remove', args: a });
      return Promise.reject(new DeskError('not_found', 'That connection no longer exists.', { profileId: a.profileId }));
    },
    'profiles.update': (a) => rec('profiles.update', a, sampleProfile(a.profileId)),
    'profiles.signIn': (a) => rec('profiles.signIn', a, sampleProfile(a.profileId)),
    'profiles.cancelSignIn': (a) => rec('profiles.cancelSignIn', a, sampleProfile(a.profileId)),
    'profiles.setWorkOffline': (a) => rec('profiles.setWorkOffline', a, sampleProfile(a.profileId)),
    'profiles.restoreDemo': (a) => rec('profiles.restoreDemo', a, sampleProfile('sandbox-demo')),
    'profiles.retryNow': (a) => rec('profiles.retryNow', a, sampleProfile(a.profileId)),
    'accounts.list': (a) => rec('accounts.list', a, [sampleAccount('p1', 'acme')]),
    'accounts.add': (a) => rec('accounts.add', a, sampleAccount(a.profileId, a.accountId)),
    'accounts.remove': (a) => rec('accounts.remove', a, { ok: true as const }),
    'accounts.capabilities': (a) => rec('accounts.capabilities', a, { accountName: 'Acme', capabilities: [] }),
    'accounts.setCapability': (a) =>
      rec('accounts.setCapability', a, {
        accountName: 'Acme',
        capabilities:
          a.state === 'unknown' ? [] : [{ capability: a.capability, state: a.state, source: 'person' as const, message: null, at: 1 }],
      }),
    'campaigns.query': (a) => rec('campaigns.query', a, { rows: [sampleRow(a.offset)], total: 1, syncedAt: null }),
    'campaigns.values': (a) =>
      rec('campaigns.values', a, {
        bid_strategy: ['FIXED'],
        marketing_objective: [],
        spending_limit_model: [],
        campaign_item_type: [],
        status: [],
      }),
    'campaigns.records': (a) =>
      rec('campaigns.records', a, { rows: [{ ...sampleRow(a.offset), fields: { tracking_code: 'utm=1' } }], total: 1, syncedAt: null }),
    'campaigns.count': (a) => rec('campaigns.count', a, { total: 1 }),
    'views.load': (a) => rec('views.load', a, { accounts: {} }),
    'views.save': (a) => rec('views.save', a, { ok: true as const }),
    'sync.refresh': (a) => rec('sync.refresh', a, { ok: true as const }),
    'sync.cancel': (a) => rec('sync.cancel', a, { ok: true as const }),
    'drafts.list': (a) => rec('drafts.list', a, []),
    'drafts.save': (a) =>
      rec(
        'drafts.save',
        a,
        a.kind === 'campaign'
          ? {
              kind: 'campaign' as const,
              id: 'd1',
              profileId: a.profileId,
              accountId: a.accountId,
              payload: a.payload,
              problems: [],
              updatedAt: 0,
              status: 'draft' as const,
            }
          : {
              kind: 'push' as const,
              id: 'd1',
              profileId: a.profileId,
              accountId: a.accountId,
              payload: a.payload,
              problems: [],
              updatedAt: 0,
              status: 'draft' as const,
            },
      ),
    'drafts.delete': (a) => rec('drafts.delete', a, { ok: true as const }),
    'drafts.submit': (a) => rec('drafts.submit', a, sampleOutbox(a.id)),
    'drafts.history': (a) => rec('drafts.history', a, { undo: [], redo: [] }),
    'drafts.saveHistory': (a) => rec('drafts.saveHistory', a, { ok: true as const }),
    'drafts.saveMany': (a) => rec('drafts.saveMany', a, []),
    'drafts.deleteMany': (a) => rec('drafts.deleteMany', a, { ok: true as const }),
    'drafts.submitMany': (a) =>
      rec('drafts.submitMany', a, { queued: a.ids.map((id) => ({ id, summary: 'Create campaign' })), refused: [] }),
    'outbox.list': (a) => rec('outbox.list', a, []),
    'outbox.retry': (a) => rec('outbox.retry', a, sampleOutbox(a.id)),
    'outbox.move': (a) => rec('outbox.move', a, sampleOutbox(a.id)),
    'outbox.takeBack': (a) =>
      rec('outbox.takeBack', a, {
        kind: 'campaign' as const,
        id: 'd1',
        profileId: 'p1',
        accountId: 'acme',
        payload: {},
        problems: [],
        updatedAt: 0,
        status: 'draft' as const,
      }),
    'outbox.discard': (a) => rec('outbox.discard', a, { ok: true as const }),
    'outbox.waits': (a) => rec('outbox.waits', a, []),
    'outbox.counts': (a) => rec('outbox.counts', a, []),
    'outbox.candidates': (a) => rec('outbox.candidates', a, { kind: 'campaign' as const, ids: ['1000001', '1000002'] }),
    'outbox.confirmMatch': (a) => rec('outbox.confirmMatch', a, sampleOutbox(a.id)),
    'outbox.sendAgain': (a) => rec('outbox.sendAgain', a, sampleOutbox(a.id)),
    'apps.list': (a) => rec('apps.list', a, []),
    'apps.setSwPath': (a) => rec('apps.setSwPath', a, sampleOutbox('o1')),
    'tasks.list': (a) => rec('tasks.list', a, []),
    'tasks.refresh': (a) => rec('tasks.refresh', a, { ok: true as const }),
    'tasks.update': (a) => rec('tasks.update', a, sampleOutbox('o2')),
    'tasks.cancel': (a) => rec('tasks.cancel', a, sampleOutbox('o3')),
    'push.serviceClock': (a) => rec('push.serviceClock', a, { offsetMs: 0 }),
    'push.blocked': (a) => rec('push.blocked', a, []),
    'push.reschedule': (a) => rec('push.reschedule', a, sampleOutbox('o4')),
    'push.defaults': (a) => rec('push.defaults', a, { performer: null }),
    'push.setDefaultPerformer': (a) => rec('push.setDefaultPerformer', a, { ok: true as const }),
    'push.templates': (a) => rec('push.templates', a, []),
    'push.saveTemplate': (a) => rec('push.saveTemplate', a, { id: 't1', name: 'T', payload: {}, createdAt: 0 }),
    'push.removeTemplate': (a) => rec('push.removeTemplate', a, { ok: true as const }),
    'images.check': (a) =>
      rec('images.check', a, {
        url: '',
        reachable: false,
        status: null,
        contentType: null,
        format: null,
        bytes: null,
        width: null,
        height: null,
        dataUrl: null,
        error: 'x',
        hints: [],
      }),
    'ratelimit.state': (a) => rec('ratelimit.state', a, []),
    'ratelimit.view': (a) => rec('ratelimit.view', a, { at: 0, accounts: [], push: [] }),
    'unsent.list': (a) => rec('unsent.list', a, { items: [] }),
    'retention.get': (a) => rec('retention.get', a, { sentDays: 30, activityDays: 30 }),
    'retention.preview': (a) => rec('retention.preview', a, { sent: 0, activity: 0 }),
    'retention.set': (a) =>
      rec('retention.set', a, { retention: { sentDays: a.sentDays, activityDays: a.activityDays }, removed: { sent: 0, activity: 0 } }),
    'activity.list': (a) => {
      calls.push({ channel: 'activity.list', args: a });
      return Promise.reject(new Error('disk I/O error at /home/someone/secret-token-abc123'));
    },
  };
  return { handlers, calls, profiles };
}

/** An event source the test drives by hand. */
export function createManualEvents(): DeskEventSource & {
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
  emitRaw(event: EventName, payload: unknown): void;
  listenerCount(): number;
} {
  const listeners = new Map<string, Set<(p: unknown) => void>>();
  return {
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      set.add(listener as (p: unknown) => void);
      listeners.set(event, set);
      return () => {
        set.delete(listener as (p: unknown) => void);
      };
    },
    emit(event, payload) {
      for (const l of listeners.get(event) ?? []) l(payload);
    },
    emitRaw(event, payload) {
      for (const l of listeners.get(event) ?? []) l(payload);
    },
    listenerCount() {
      let n = 0;
      for (const s of listeners.values()) n += s.size;
      return n;
    },
  };
}

/** One valid input per channel, the starting point the fuzzers mutate. */
export const VALID_INPUTS: { [C in ChannelName]: ChannelInput<C> } = {
  'app.info': {},
  'profiles.list': {},
  'profiles.create': {
    name: 'Acme',
    baseUrl: 'https://api.example.com',
    authUrl: 'https://api.example.com',
    pushUrl: 'https://api.example.com',
    clientId: 'c1',
    clientSecret: 'fuzz-secret',
    flow: 'client_credentials',
  },
  'profiles.update': { profileId: 'p1', name: 'Acme 2' },
  'profiles.remove': { profileId: 'p1' },
  'profiles.signIn': { profileId: 'p1' },
  'profiles.cancelSignIn': { profileId: 'p1' },
  'profiles.setWorkOffline': { profileId: 'p1', offline: true },
  'profiles.restoreDemo': {},
  'profiles.retryNow': { profileId: 'p1' },
  'accounts.list': {},
  'accounts.add': { profileId: 'p1', accountId: 'acme' },
  'accounts.remove': { profileId: 'p1', accountId: 'acme' },
  'accounts.capabilities': { profileId: 'p1', accountId: 'acme' },
  'accounts.setCapability': { profileId: 'p1', accountId: 'acme', capability: 'display', state: 'enabled' },
  'campaigns.query': {
    profileId: 'p1',
    accountId: 'acme',
    sort: { field: 'name', direction: 'asc' },
    statuses: ['APPROVED'],
    text: 'boots',
  },
  'campaigns.values': { profileId: 'p1', accountId: 'acme' },
  'campaigns.records': { profileId: 'p1', accountId: 'acme', text: 'boots' },
  'campaigns.count': { profileId: 'p1', accountId: 'acme', text: 'boots' },
  'views.load': {},
  'views.save': {
    account: { profileId: 'p1', accountId: 'acme' },
    tab: 'drafts',
    accounts: { 'p1/acme': { sort: null, status: 'PAUSED', text: '', columns: [{ id: 'name', width: 200 }], detailsOpen: false } },
  },
  'sync.refresh': { profileId: 'p1', accountId: 'acme' },
  'sync.cancel': { profileId: 'p1', accountId: 'acme' },
  'drafts.list': { profileId: 'p1', accountId: 'acme' },
  'drafts.save': { kind: 'campaign', profileId: 'p1', accountId: 'acme', payload: { name: 'Draft' } },
  'drafts.delete': { id: 'd1' },
  'drafts.submit': { id: 'd1' },
  'drafts.history': { profileId: 'p1', accountId: 'acme' },
  'drafts.saveHistory': {
    profileId: 'p1',
    accountId: 'acme',
    history: {
      undo: [{ label: 'delete draft', before: [{ id: 'd1', payload: { name: 'Boots' } }], after: [{ id: 'd1', payload: null }] }],
      redo: [],
    },
  },
  'drafts.saveMany': { profileId: 'p1', accountId: 'acme', drafts: [{ payload: { name: 'Boots' } }] },
  'drafts.deleteMany': { ids: ['d1', 'd2'] },
  'drafts.submitMany': { ids: ['d1'] },
  'outbox.list': {},
  'outbox.retry': { id: 'o1' },
  'outbox.takeBack': { id: 'o1' },
  'outbox.move': { id: 'o1', to: 'first' },
  'outbox.discard': { id: 'o1' },
  'outbox.waits': {},
  'outbox.counts': {},
  'outbox.candidates': { id: 'o1' },
  'outbox.confirmMatch': { id: 'o1', candidateId: '1000002' },
  'outbox.sendAgain': { id: 'o1' },
  'apps.list': { profileId: 'p1' },
  'apps.setSwPath': { profileId: 'p1', accountId: 'acme', appId: '1001', serviceWorkerPath: '/sw.js', performer: 'me' },
  'tasks.list': { profileId: 'p1', appId: '1001' },
  'tasks.refresh': { profileId: 'p1', appId: '1001' },
  'tasks.update': { profileId: 'p1', accountId: 'acme', taskId: '900001', patch: { title: 'New' } },
  'tasks.cancel': { profileId: 'p1', accountId: 'acme', taskId: '900001' },
  'push.serviceClock': { profileId: 'p1' },
  'push.blocked': { profileId: 'p1', accountId: 'acme' },
  'push.reschedule': { id: '4', when: { kind: 'now' } },
  'push.defaults': { profileId: 'p1' },
  'push.setDefaultPerformer': { profileId: 'p1', performer: 'me@example.com' },
  'push.templates': {},
  'push.saveTemplate': { name: 'T', payload: {} },
  'push.removeTemplate': { id: 't1' },
  'images.check': { url: 'https://example.com/i.png', role: 'icon' },
  'ratelimit.state': {},
  'ratelimit.view': { profileId: 'p1' },
  'unsent.list': { profileId: 'p1', accountId: 'acme' },
  'retention.get': {},
  'retention.preview': { sentDays: 7, activityDays: 30 },
  'retention.set': { sentDays: 7, activityDays: 30 },
  'activity.list': { limit: 10 },
};

/** Channels whose every field is optional: for them some random objects are valid input. */
export const ALL_OPTIONAL = new Set<ChannelName>([
  'app.info',
  'profiles.list',
  'accounts.list',
  'outbox.list',
  'ratelimit.state',
  'activity.list',
]);
