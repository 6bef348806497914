// The one IPC contract: every channel the renderer may call, with its input and output schemas,
// and every event the core emits. The preload bridge, the main-side registration, the browser-mode
// HTTP/WebSocket transport and the renderer's typed client are all derived from this table, so a
// channel name is written exactly once: here.
import { z } from 'zod';
import { accountIdSchema, campaignCreateSchema, type FieldProblem } from '../domain/campaign';
import { pushEventSchema, taskSchema, taskUpdateSchema } from '../domain/push';
import { accountCapabilitiesSchema, CAPABILITIES, CAPABILITY_STATES } from '../domain/capabilities';
import { clientSecretSchema, profileCreateSchema, profileFieldsSchema, SIGN_IN_FLOWS } from '../domain/profile';
import { OUTBOX_ITEM_KINDS, OUTBOX_STATES, UNSENT_OUTBOX_STATES } from '../domain/outbox';
import { campaignListSchema, campaignQuerySchema } from '../domain/campaign-query';
import { ACCOUNT_TYPES } from '../domain/account';
import { deskErrorSchema, type Result } from '../errors';
import { unsentListSchema } from '../domain/unsent';
import { draftHistorySchema } from '../domain/draft-history';
import { retentionEffectSchema, retentionSchema } from '../retention';

// ---- Shared DTOs ---------------------------------------------------------------------------

const id = z.string().min(1).max(200);

export const fieldProblemSchema: z.ZodType<FieldProblem> = z.object({ field: z.string(), message: z.string() });

/** 'unknown': not checked since start-up (or since going back online); nothing is claimed until the service answers. */
export const CONNECTION_STATES = ['unknown', 'online', 'offline', 'working_offline', 'signing_in', 'failing'] as const;

/** A connection profile as the renderer sees it: never a secret, only whether one is stored. */
export const profileSchema = z.object({
  id,
  name: z.string(),
  kind: z.enum(['sandbox', 'service']),
  baseUrl: z.string(),
  authUrl: z.string(),
  pushUrl: z.string(),
  clientId: z.string(),
  flow: z.enum(SIGN_IN_FLOWS),
  redirectUri: z.string().nullable(),
  hasSecret: z.boolean(),
  signIn: z.object({
    state: z.enum(['signed_in', 'signed_out', 'signing_in', 'sign_in_required', 'failed']),
    message: z.string().nullable(),
    /** The client secret is missing from the keychain: entering it again is what helps, not a sign-in. */
    needsSecret: z.boolean().optional(),
  }),
  connection: z.enum(CONNECTION_STATES),
});
export type Profile = z.infer<typeof profileSchema>;

export const accountSchema = z.object({
  profileId: id,
  accountId: z.string(),
  name: z.string(),
  type: z.enum(ACCOUNT_TYPES),
  networkId: z.string().nullable(),
  lastSyncedAt: z.number().nullable(),
  campaignCount: z.number().int(),
  queued: z.number().int(),
  /** The service refused this account (403) on its last call: its words and when. Absent when fine. */
  noAccess: z.object({ words: z.string(), at: z.number() }).optional(),
});
export type Account = z.infer<typeof accountSchema>;

/** A cached campaign row: the spec's fields (snake_case, as the service sends them) plus local marks. */
export const campaignRowSchema = z.object({
  id: z.string(),
  account_id: z.string(),
  advertiser_id: z.string().nullable(),
  advertiser_name: z.string().nullable(),
  name: z.string(),
  status: z.string().nullable(),
  spent: z.number().nullable(),
  cpc: z.number().nullable(),
  daily_cap: z.number().nullable(),
  spending_limit: z.number().nullable(),
  spending_limit_model: z.string().nullable(),
  bid_strategy: z.string().nullable(),
  marketing_objective: z.string().nullable(),
  pricing_model: z.string().nullable(),
  start_date: z.string().nullable(),
  campaign_item_type: z.string().nullable(),
  branding_text: z.string().nullable(),
  campaign_group_id: z.string().nullable(),
});
export type CampaignRow = z.infer<typeof campaignRowSchema>;

/**
 * The window as the person left it (issue 16): the open account and tab, and per account the
 * campaigns view (sort, status filter, search, chosen columns with widths, details pane). Saved
 * in the settings table; a value that no longer parses reads as "nothing saved".
 */
export const accountViewSchema = z.object({
  sort: z.object({ field: z.string().max(64), direction: z.enum(['asc', 'desc']) }).nullable(),
  status: z.string().max(64).nullable(),
  text: z.string().max(4000),
  /** Chosen columns in display order; widths in pixels. Empty means the default set. */
  columns: z.array(z.object({ id: z.string().max(64), width: z.number().int().min(40).max(1200) })).max(64),
  detailsOpen: z.boolean(),
});
export type AccountView = z.infer<typeof accountViewSchema>;
export const windowViewSchema = z.object({
  /** Absent until an account was opened (never null: no field of the contract takes null for "none" here). */
  account: z.object({ profileId: id, accountId: z.string().max(200) }).optional(),
  tab: z.string().max(32).optional(),
  /** Keyed by `${profileId}/${accountId}`. */
  accounts: z.record(z.string().max(420), accountViewSchema),
});
export type WindowView = z.infer<typeof windowViewSchema>;

/** A cached campaign with every field the service sent, known or not (the details pane, extra columns). */
export const campaignRecordSchema = campaignRowSchema.extend({ fields: z.record(z.string(), z.unknown()) });
export type CampaignRecord = z.infer<typeof campaignRecordSchema>;

export const pushDraftPayloadSchema = z.object({
  mode: z.enum(['immediate', 'scheduled']),
  event: pushEventSchema,
});
export type PushDraftPayload = z.infer<typeof pushDraftPayloadSchema>;

/**
 * Where an unsent change stands (one change = the draft plus at most one outbox item): 'draft' is
 * editable; the others are its item's state, read-only until taken back to draft.
 */
/** Why an item is not sent yet; `said`: the service's own answer when one left it in doubt (a 5xx), kept beside the app's notes. */
export const storedErrorSchema = z.object({ code: z.string(), message: z.string(), said: z.string().optional() });
export const DRAFT_STATUSES = ['draft', 'queued', 'sending', 'uncertain', 'failed', 'blocked'] as const;
const draftCommon = {
  id,
  profileId: id,
  accountId: z.string(),
  problems: z.array(fieldProblemSchema),
  updatedAt: z.number(),
  status: z.enum(DRAFT_STATUSES),
  /** The change's outbox item while it has one (absent for a draft never queued or taken back). */
  item: z
    .object({
      id: z.string(),
      lastError: storedErrorSchema.nullable(),
      fix: z.string().nullable(),
      attempts: z.number().int(),
      updatedAt: z.number(),
    })
    .optional(),
  /** What the service said of it last, kept when it was taken back to draft to be fixed. */
  serviceWords: z.string().optional(),
  /** Why the app held it back (blocked, never sent), kept the same way. */
  blockedWords: z.string().optional(),
};
export const draftSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('campaign'), ...draftCommon, payload: campaignCreateSchema.partial() }),
  z.object({ kind: z.literal('push'), ...draftCommon, payload: pushDraftPayloadSchema.partial() }),
]);
export type Draft = z.infer<typeof draftSchema>;

export const outboxItemSchema = z.object({
  id: z.string(),
  profileId: id,
  accountId: z.string(),
  kind: z.enum(OUTBOX_ITEM_KINDS),
  summary: z.string(),
  state: z.enum(OUTBOX_STATES),
  attempts: z.number().int(),
  lastError: storedErrorSchema.nullable(),
  /** For a blocked item: what the person can do (e.g. "Pick a new time and schedule again"). */
  fix: z.string().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
  nextAttemptAt: z.number().nullable(),
  /** The draft it came from (absent for task edits and service-worker paths): it can be taken back to it. */
  draftId: z.string().optional(),
  /** Failed or blocked, and its draft was edited since: only queueing the draft again sends it (Retry would send the old version). */
  draftEdited: z.boolean().optional(),
  /** Once posted: what the service calls it (the campaign's id, or the push's task ids). */
  posted: z.object({ kind: z.enum(['campaign', 'task']), ids: z.array(z.string()) }).optional(),
  /** A scheduled push, or a task moved to a new time: when it is to go out, and on whose clock (userTimeZone 0 UTC, 1 each subscriber's). */
  schedule: z.object({ executionTime: z.number(), userTimeZone: z.number().int() }).optional(),
});
export type OutboxItem = z.infer<typeof outboxItemSchema>;

/** How many of an account's changes are in one unsent state: what the status bar and the Outbox tab count. */
export const outboxCountSchema = z.object({
  profileId: id,
  accountId: z.string(),
  state: z.enum(UNSENT_OUTBOX_STATES),
  count: z.number().int().min(1),
});
export type OutboxCount = z.infer<typeof outboxCountSchema>;

/**
 * Why a queued or sending item waits, true at the moment it is asked (outbox.waits): next in line,
 * behind other changes of its account, offline, working offline, signing in, held by a rate-limit
 * window (which, how full, and when a request fits again), or a retry at a set time.
 */
export const OUTBOX_WAIT_REASONS = ['sending', 'next', 'turn', 'offline', 'working_offline', 'signing_in', 'rate_limit', 'retry'] as const;
export const outboxWaitSchema = z.object({
  id: z.string(),
  /** The account whose queue it is in: the status bar says its head's wait. */
  profileId: z.string(),
  accountId: z.string(),
  reason: z.enum(OUTBOX_WAIT_REASONS),
  /** When the wait is expected to end; null when no time can be promised. */
  until: z.number().nullable(),
  /** Changes of the same account that go before it. */
  ahead: z.number().int(),
  window: z
    .object({
      group: z.string(),
      name: z.string(),
      used: z.number(),
      quota: z.number(),
      windowMs: z.number(),
      nextSlotAt: z.number().nullable(),
    })
    .nullable(),
  lastTry: z.string().nullable(),
});
export type OutboxWait = z.infer<typeof outboxWaitSchema>;

/** What an ambiguous item waits on: campaign ids (a create) or task ids (a push). */
export const outboxCandidatesSchema = z.object({ kind: z.enum(['campaign', 'task']), ids: z.array(z.string()) });
export type OutboxCandidates = z.infer<typeof outboxCandidatesSchema>;

export const appSchema = z.object({
  profileId: id,
  appId: z.string(),
  publisher: z.string(),
  swPath: z.string().nullable(),
});
export type App = z.infer<typeof appSchema>;

/** A scheduled push whose time passed while it waited in the outbox (blocked, TIME_PASSED). */
export const blockedPushSchema = z.object({
  id: z.string(),
  title: z.string(),
  executionTime: z.number().nullable(),
  userTimeZone: z.number().nullable(),
  message: z.string(),
});
export type BlockedPush = z.infer<typeof blockedPushSchema>;

export const pushTemplateSchema = z.object({
  id: z.string(),
  name: z.string(),
  payload: pushDraftPayloadSchema.partial(),
  createdAt: z.number(),
});
export type PushTemplate = z.infer<typeof pushTemplateSchema>;

/** What the main process found at an image address: facts, problems (not shown) and hints (shown, not enforced). */
export const imageCheckSchema = z.object({
  url: z.string(),
  reachable: z.boolean(),
  status: z.number().int().nullable(),
  contentType: z.string().nullable(),
  format: z.enum(['jpeg', 'png', 'webp', 'gif', 'other']).nullable(),
  bytes: z.number().int().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  /** The checked image as a data: URL, for the preview; null when it is not an image or too large. */
  dataUrl: z.string().nullable(),
  /** Why it cannot be shown at all (unreachable, not an image, too large to check). */
  error: z.string().nullable(),
  hints: z.array(z.string()),
});
export type ImageCheck = z.infer<typeof imageCheckSchema>;

export const activitySchema = z.object({
  id: z.number().int(),
  at: z.number(),
  profileId: z.string().nullable(),
  accountId: z.string().nullable(),
  level: z.enum(['info', 'warning', 'error']),
  message: z.string(),
});
export type Activity = z.infer<typeof activitySchema>;

export const rateWindowSchema = z.object({
  name: z.string(),
  quota: z.number(),
  used: z.number(),
  windowMs: z.number(),
  resetInMs: z.number(),
});
export const rateLimitStateSchema = z.object({
  profileId: z.string(),
  accountId: z.string(),
  group: z.string(),
  budget: z.enum(['read', 'write']),
  limited: z.boolean(),
  windows: z.array(rateWindowSchema),
  queued: z.number().int(),
  drainEstimateMs: z.number().nullable(),
});
export type RateLimitState = z.infer<typeof rateLimitStateSchema>;

/** One window of a budget as the rate-limit view shows it, from the scheduler's live model. */
export const limitWindowSchema = z.object({
  name: z.string(),
  quota: z.number(),
  used: z.number(),
  windowMs: z.number(),
  /** Until the window is back to its full quota; null while only an answer can tell. */
  resetInMs: z.number().nullable(),
  /** Until one more request fits; 0 when one fits now, null while only an answer can free a slot. */
  nextSlotInMs: z.number().nullable(),
  /** This window is what keeps this budget's waiting work from going out now. */
  holding: z.boolean(),
});
export const limitBudgetSchema = z.object({
  group: z.string(),
  budget: z.enum(['read', 'write']),
  /** 'guess': no answer with rate-limit headers yet (the documented tiers); 'unlimited': answers carry none. */
  model: z.enum(['guess', 'learned', 'unlimited']),
  windows: z.array(limitWindowSchema),
  /** Requests of this budget waiting in the scheduler now. */
  waiting: z.number().int(),
  /** The service said to wait (Retry-After) this much longer. */
  blockedForMs: z.number(),
});
export const accountLimitsSchema = z.object({
  accountId: z.string(),
  /** Changes of the account on their way (queued or sending). */
  queued: z.number().int(),
  /** Until they would all have gone out, by the model; null when not known (no answer with limits yet). */
  drainEstimateMs: z.number().nullable(),
  budgets: z.array(limitBudgetSchema),
});
export const limitsViewSchema = z.object({
  /** When the picture was taken (main's clock): counts down from here. */
  at: z.number(),
  accounts: z.array(accountLimitsSchema),
  /**
   * The connection's push budgets: the push API names no account, so its requests draw from one
   * read and one write budget of the client. Empty until push work has been sent or read.
   */
  push: z.array(limitBudgetSchema),
});
export type LimitWindow = z.infer<typeof limitWindowSchema>;
export type LimitBudget = z.infer<typeof limitBudgetSchema>;
export type AccountLimits = z.infer<typeof accountLimitsSchema>;
export type LimitsView = z.infer<typeof limitsViewSchema>;

export const syncProgressSchema = z.object({
  profileId: id,
  accountId: z.string(),
  state: z.enum(['running', 'done', 'cancelled', 'failed']),
  pagesDone: z.number().int(),
  pagesTotal: z.number().int().nullable(),
  message: z.string().nullable(),
});
export type SyncProgress = z.infer<typeof syncProgressSchema>;

const profileRef = z.object({ profileId: id });
const accountRef = z.object({ profileId: id, accountId: accountIdSchema });
const empty = z.object({});
const ok = z.object({ ok: z.literal(true) });
/** The person's choice on a removal: discard what is unsent, and which unsent changes they were shown (unsentKey). */
/** Whole days; the range is checked by the handler, whose refusal names the field and its bounds. */
const retentionDaysInput = z.object({ sentDays: z.number().int(), activityDays: z.number().int() });
const removalChoice = { discardUnsent: z.boolean().optional(), discarding: z.array(z.string().max(300)).max(100_000).optional() };

// ---- Channels --------------------------------------------------------------------------------

export const channels = {
  'app.info': {
    input: empty,
    output: z.object({
      version: z.string(),
      transport: z.enum(['electron', 'browser']),
      secrets: z.object({ kind: z.enum(['keychain', 'memory']), warning: z.string().nullable() }),
      /** The built-in Sandbox demo: whether this run has it, and whether the person removed some or all of it. */
      demo: z.object({ available: z.boolean(), removed: z.boolean() }),
    }),
  },

  'profiles.list': { input: empty, output: z.array(profileSchema) },
  'profiles.create': {
    /**
     * The shared profile rules; the client secret goes into the keychain and never comes back out of
     * main. A service that cannot be reached is refused (code 'offline', details.unreachable: the
     * address) unless saveUnreachable: then it is saved working offline, as the person chose.
     */
    input: profileCreateSchema.extend({ saveUnreachable: z.boolean().optional() }),
    output: profileSchema,
  },
  /**
   * Removes the connection with its accounts, cache, drafts and queue. Refused while anything of it
   * is unsent (unsent.list) unless discardUnsent is true, and while a change is being sent. With
   * `discarding` (the unsent.list keys the person saw), anything unsent not among them refuses too.
   */
  'profiles.remove': { input: profileRef.extend(removalChoice), output: ok },
  /**
   * Edits a connection in place (name, addresses, client id, sign-in flow, and the secret when one
   * is given): its drafts, cache and queue are kept. A new secret or client id is checked with the
   * service first (client credentials) and nothing is saved if it is refused. Plain http:// only
   * for loopback addresses.
   */
  'profiles.update': {
    input: profileFieldsSchema.partial().extend({
      profileId: id,
      /** Only when it changes (or was lost); goes into the keychain and never comes back out of main. */
      clientSecret: clientSecretSchema.optional(),
    }),
    output: profileSchema,
  },

  'profiles.signIn': { input: profileRef, output: profileSchema },
  /** Stops the connection's browser sign-in that is waiting for the person; its signIn call then fails. */
  'profiles.cancelSignIn': { input: profileRef, output: profileSchema },
  'profiles.setWorkOffline': { input: z.object({ profileId: id, offline: z.boolean() }), output: profileSchema },
  /** Brings back the built-in Sandbox demo connection and every account of it the person removed. */
  /** An offline connection asks its service at once (the probe otherwise waits out its backoff); answers with its state after. */
  'profiles.retryNow': { input: profileRef, output: profileSchema },
  'profiles.restoreDemo': { input: empty, output: profileSchema },

  'accounts.list': { input: z.object({ profileId: id.optional() }), output: z.array(accountSchema) },
  'accounts.add': {
    input: z.object({ profileId: id, accountId: accountIdSchema, name: z.string().max(200).optional() }),
    output: accountSchema,
  },
  /** As profiles.remove, for one account: refused while anything of it is unsent unless discardUnsent is true. */
  'accounts.remove': { input: accountRef.extend(removalChoice), output: ok },
  /** Every unsent change of a connection (or of one of its accounts): drafts, queued, sending, being checked, failed, blocked. */
  'unsent.list': { input: z.object({ profileId: id, accountId: accountIdSchema.optional() }), output: unsentListSchema },
  /** How many days sent changes and the activity log are kept. */
  'retention.get': { input: empty, output: retentionSchema },
  /** What a new setting would remove at once; nothing is changed. Out-of-range days are refused with the bounds. */
  'retention.preview': { input: retentionDaysInput, output: retentionEffectSchema },
  /** Saves the periods and prunes at once what is older than them; says what went. */
  'retention.set': {
    input: retentionDaysInput,
    output: z.object({ retention: retentionSchema, removed: retentionEffectSchema }),
  },
  /** What the account may use (display, performance video, no spending limit), learned from the service or said by the person. */
  'accounts.capabilities': { input: accountRef, output: accountCapabilitiesSchema },
  /** The person says what the account may use ('unknown' forgets it); it replaces what was learned before. */
  'accounts.setCapability': {
    input: z.object({ profileId: id, accountId: accountIdSchema, capability: z.enum(CAPABILITIES), state: z.enum(CAPABILITY_STATES) }),
    output: accountCapabilitiesSchema,
  },

  'campaigns.query': {
    input: campaignQuerySchema,
    output: z.object({ rows: z.array(campaignRowSchema), total: z.number().int(), syncedAt: z.number().nullable() }),
  },
  /**
   * campaigns.query with each row's every cached field (unknown ones included), for the grid's
   * chosen columns. With withTotal false the total is not counted (null): the grid asks it of
   * campaigns.count beside the first page, since counting a common word's matches costs far more
   * than the page (issue #29), and not again for the pages it reads while scrolling.
   */
  'campaigns.records': {
    input: campaignQuerySchema.extend({ withTotal: z.boolean().optional() }),
    output: z.object({ rows: z.array(campaignRecordSchema), total: z.number().int().nullable(), syncedAt: z.number().nullable() }),
  },
  /**
   * How many campaigns the list (campaigns.records' query without its page) holds. Counted on a
   * reader of its own, so it never holds a page; a count still waiting when the same list is asked
   * with another text is not read (fails as conflict).
   */
  'campaigns.count': { input: campaignListSchema, output: z.object({ total: z.number().int() }) },
  /** The saved window state (views.save writes it whole). */
  'views.load': { input: empty, output: windowViewSchema },
  'views.save': { input: windowViewSchema, output: ok },
  /**
   * Values of the create fields the service may extend (spec 2.1: other values not shown) seen in
   * the account's cached campaigns, so the campaign editor can offer them (DECISIONS client 7).
   */
  'campaigns.values': {
    input: accountRef,
    output: z.object({
      bid_strategy: z.array(z.string()),
      marketing_objective: z.array(z.string()),
      spending_limit_model: z.array(z.string()),
      campaign_item_type: z.array(z.string()),
      /** Statuses the cache holds, as the service wrote them (the Campaigns tab's filter offers each). */
      status: z.array(z.string()),
    }),
  },
  'sync.refresh': { input: accountRef, output: ok },
  'sync.cancel': { input: accountRef, output: ok },

  /** Every unsent change of the account: editable drafts, and queued, sending, uncertain, failed or blocked ones (status). */
  'drafts.list': { input: accountRef, output: z.array(draftSchema) },
  'drafts.save': {
    input: z.discriminatedUnion('kind', [
      z.object({
        kind: z.literal('campaign'),
        id: id.optional(),
        profileId: id,
        accountId: accountIdSchema,
        payload: campaignCreateSchema.partial(),
      }),
      z.object({
        kind: z.literal('push'),
        id: id.optional(),
        profileId: id,
        accountId: accountIdSchema,
        payload: pushDraftPayloadSchema.partial(),
      }),
    ]),
    output: draftSchema,
  },
  'drafts.delete': { input: z.object({ id }), output: ok },
  /**
   * Saves many campaign drafts of one account, all or none (import, duplicate, bulk edit, undo and
   * redo). A given id that no longer exists is created again under that id (redo of a removal).
   */
  'drafts.saveMany': {
    input: z.object({
      profileId: id,
      accountId: accountIdSchema,
      drafts: z
        .array(z.object({ id: id.optional(), payload: campaignCreateSchema.partial() }))
        .min(1)
        .max(5000),
    }),
    output: z.array(draftSchema),
  },
  /** Removes many drafts, all or none. */
  'drafts.deleteMany': { input: z.object({ ids: z.array(id).min(1).max(5000) }), output: ok },
  /** Checks and queues many drafts; the ones with problems stay drafts. One answer for all. */
  'drafts.submitMany': {
    input: z.object({ ids: z.array(id).min(1).max(5000) }),
    output: z.object({
      queued: z.array(z.object({ id, summary: z.string() })),
      refused: z.array(z.object({ id, problems: z.array(fieldProblemSchema) })),
    }),
  },
  /** Checks the draft with the shared rules and, if it passes, moves it to the outbox in one transaction. */
  'drafts.submit': { input: z.object({ id }), output: outboxItemSchema },
  /** The account's drafts undo history as last kept (empty when none), so a reload of the window can still undo. */
  'drafts.history': { input: accountRef, output: draftHistorySchema },
  /** Keeps the account's drafts undo history (bounded by the window, src/shared/domain/draft-history.ts). */
  'drafts.saveHistory': { input: accountRef.extend({ history: draftHistorySchema }), output: ok },

  'outbox.list': { input: z.object({ profileId: id.optional(), accountId: z.string().optional() }), output: z.array(outboxItemSchema) },
  /** The unsent changes counted per account and state, without the items or the sent history (the status bar's question). */
  'outbox.counts': { input: z.object({ profileId: id.optional() }), output: z.array(outboxCountSchema) },
  /** Queues a failed or blocked item again as it is (refused if its draft was edited since). */
  'outbox.retry': { input: z.object({ id }), output: outboxItemSchema },
  /** A queued, failed or blocked item goes back to its draft, atomically: the item is gone, the draft editable. */
  'outbox.takeBack': { input: z.object({ id }), output: draftSchema },
  'outbox.discard': { input: z.object({ id }), output: ok },
  /**
   * The person changes which queued change of the account goes first: one place up or down, to the
   * top or the bottom, or before another queued change. Only queued items move (a change being sent
   * or looked for stays first); the moved item comes back.
   */
  'outbox.move': {
    input: z.object({ id, to: z.union([z.enum(['up', 'down', 'first', 'last']), z.object({ before: id })]) }),
    output: outboxItemSchema,
  },
  /** Why each queued or sending item waits, now (the Outbox view's "Waiting" column). */
  'outbox.waits': { input: z.object({ profileId: id.optional() }), output: z.array(outboxWaitSchema) },
  /**
   * An uncertain item whose answer was lost and whose look-up found several matches (lastError
   * code 'AMBIGUOUS'): the ids the person chooses from. The engine never picks one itself.
   */
  'outbox.candidates': { input: z.object({ id }), output: outboxCandidatesSchema },
  /** The person says which match is theirs ("It is campaign N"): the item is sent, with that id. */
  'outbox.confirmMatch': { input: z.object({ id, candidateId: id }), output: outboxItemSchema },
  /** The person says none of the matches is theirs ("It was not posted"): it is sent again, now. */
  'outbox.sendAgain': { input: z.object({ id }), output: outboxItemSchema },

  'apps.list': { input: profileRef, output: z.array(appSchema) },
  'apps.setSwPath': {
    input: z.object({
      profileId: id,
      accountId: accountIdSchema,
      appId: z.string().regex(/^\d+$/),
      serviceWorkerPath: z.string().max(500),
      performer: z.string().max(200),
    }),
    output: outboxItemSchema,
  },
  'tasks.list': {
    input: z.object({ profileId: id, appId: z.string().regex(/^\d+$/), taskType: z.enum(['immediate', 'scheduled']).optional() }),
    output: z.array(taskSchema),
  },
  'tasks.refresh': { input: z.object({ profileId: id, appId: z.string().regex(/^\d+$/) }), output: ok },
  'tasks.update': {
    input: z.object({ profileId: id, accountId: accountIdSchema, taskId: z.string().regex(/^\d+$/), patch: taskUpdateSchema }),
    output: outboxItemSchema,
  },
  'tasks.cancel': {
    input: z.object({ profileId: id, accountId: accountIdSchema, taskId: z.string().regex(/^\d+$/) }),
    output: outboxItemSchema,
  },

  /** The service's clock as learned from its Date headers: how far it is ahead of this computer (0 until known). */
  'push.serviceClock': { input: profileRef, output: z.object({ offsetMs: z.number() }) },
  /** Scheduled pushes of an account blocked because their time passed while they waited to be sent. */
  'push.blocked': { input: accountRef, output: z.array(blockedPushSchema) },
  /** Fixes a blocked scheduled push in one step: the same outbox item, queued again with a new time or to send now. */
  'push.reschedule': {
    input: z.object({
      id,
      when: z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('at'), executionTime: z.number().int() }),
        z.object({ kind: z.literal('now') }),
      ]),
    }),
    output: outboxItemSchema,
  },
  /** The connection's default performer, prefilled in every new push. */
  'push.defaults': { input: profileRef, output: z.object({ performer: z.string().nullable() }) },
  'push.setDefaultPerformer': { input: z.object({ profileId: id, performer: z.string().max(200) }), output: ok },
  'push.templates': { input: empty, output: z.array(pushTemplateSchema) },
  'push.saveTemplate': {
    input: z.object({ name: z.string().trim().min(1).max(120), payload: pushDraftPayloadSchema.partial() }),
    output: pushTemplateSchema,
  },
  'push.removeTemplate': { input: z.object({ id }), output: ok },
  /** Fetches an image address in the main process and says what a subscriber's browser would get (4.6 note 7). */
  'images.check': { input: z.object({ url: z.string().max(4000), role: z.enum(['icon', 'thumbnail']) }), output: imageCheckSchema },

  'ratelimit.state': { input: z.object({ profileId: id.optional() }), output: z.array(rateLimitStateSchema) },
  /** The rate-limit view: per account of the connection, each budget's windows and when its queue is drained. */
  'ratelimit.view': { input: z.object({ profileId: id }), output: limitsViewSchema },
  'activity.list': {
    input: z.object({ profileId: id.optional(), limit: z.number().int().min(1).max(1000).default(200) }),
    output: z.array(activitySchema),
  },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

// ---- Events (main -> renderer) -----------------------------------------------------------------

export const events = {
  'sync.progress': syncProgressSchema,
  'outbox.changed': z.object({ profileId: z.string(), accountId: z.string() }),
  'connection.changed': z.object({ profileId: z.string(), connection: z.enum(CONNECTION_STATES) }),
  'ratelimit.changed': z.object({ profileId: z.string() }),
  /** The service's clock minus the computer's (ms), learned by main from Date headers: the window's "service now". */
  'service.clock': z.object({ profileId: z.string(), offsetMs: z.number().int().finite() }),
  'data.changed': z.object({
    profileId: z.string().nullable(),
    accountId: z.string().nullable(),
    what: z.enum(['profiles', 'accounts', 'campaigns', 'drafts', 'apps', 'tasks', 'activity']),
  }),
} as const satisfies Record<string, z.ZodType>;

// ---- Derived types -------------------------------------------------------------------------------

export type Channels = typeof channels;
export type ChannelName = keyof Channels;
export type ChannelInput<C extends ChannelName> = z.input<Channels[C]['input']>;
/** What a handler receives: the input after zod applied defaults. */
export type ChannelArgs<C extends ChannelName> = z.output<Channels[C]['input']>;
export type ChannelOutput<C extends ChannelName> = z.output<Channels[C]['output']>;
export type EventName = keyof typeof events;
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>;

export const CHANNEL_NAMES = Object.keys(channels) as ChannelName[];
export const EVENT_NAMES = Object.keys(events) as EventName[];

export function isChannelName(x: unknown): x is ChannelName {
  return typeof x === 'string' && Object.prototype.hasOwnProperty.call(channels, x);
}

/** Every result crossing the bridge: a value or an error as data. */
export const resultSchema = <T extends z.ZodType>(value: T) =>
  z.union([z.object({ ok: z.literal(true), value }), z.object({ ok: z.literal(false), error: deskErrorSchema })]);

/** The main-side implementation of every channel (the core provides it). */
export type DeskHandlers = { [C in ChannelName]: (args: ChannelArgs<C>) => Promise<ChannelOutput<C>> };

/** Event subscription the core offers to transports. */
export interface DeskEventSource {
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

/** The API the renderer holds (window.desk in Electron; an HTTP/WebSocket client in browser mode). */
export interface DeskBridge {
  invoke<C extends ChannelName>(channel: C, input: ChannelInput<C>): Promise<Result<ChannelOutput<C>>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}
