// How the engine recognises its own work on the service after an unknown outcome (DECISIONS
// client 8 and 16): by what the client SENT, compared in the form a service may store it in. A
// service may fill in fields a create left out and normalise the ones it was sent (round money to
// cents, store text Unicode-normalised with its whitespace collapsed, re-serialise a tracking code
// or a URL, write a date-time with another offset, move a creative surface on once items are
// added), and a real service is free to do so. So only fields present in what was sent are
// compared, each in a normal form both sides share: text as NFKC with whitespace runs collapsed
// and trimmed, enum values without case, query strings and URLs as sets of decoded parameters,
// numbers to the cent, date-times as instants; and a field that was sent but is absent or null in
// the listing is no evidence against a match.
import type { Campaign, CampaignCreate } from '../../shared/domain/campaign';
import type { PushEvent, PushMode, Task, TaskUpdate } from '../../shared/domain/push';
import { readServiceInstant, sameServiceInstant } from '../../shared/domain/service-dates';
import { isServiceValue } from '../../shared/domain/service-values';

type FieldKind = 'text' | 'enum' | 'query' | 'number' | 'instant' | 'surface';

/** Every field a create can send, and how a listed value is compared with the sent one. */
const CREATE_FIELDS: Readonly<Record<keyof CampaignCreate, FieldKind>> = {
  name: 'text',
  branding_text: 'text',
  tracking_code: 'query',
  cpc: 'number',
  daily_cap: 'number',
  spending_limit: 'number',
  spending_limit_model: 'enum',
  bid_strategy: 'enum',
  marketing_objective: 'enum',
  campaign_group_id: 'text',
  start_date: 'instant',
  campaign_item_type: 'surface',
  daily_ad_delivery_model: 'enum',
};
const CREATE_FIELD_ENTRIES = Object.entries(CREATE_FIELDS) as [keyof CampaignCreate, FieldKind][];

/** Money is kept to the cent: a service may round what it stores (0.125 -> 0.13). */
const NUMBER_TOLERANCE = 0.005 + 1e-9;
/**
 * A date-time is the same instant to the second (a service may drop milliseconds), or to the
 * precision the service wrote it in; one without an offset at any offset (service-dates.ts).
 */
const INSTANT_TOLERANCE_MS = 1000;

/** Display and video campaigns leave their HAS_NO_ITEMS_* state once items are added (spec 3.1). */
function surface(itemType: string): string {
  if (itemType.includes('VIDEO')) return 'video';
  if (itemType.includes('DISPLAY')) return 'display';
  return 'native';
}

/**
 * Text as a service may store it: Unicode NFKC (which also covers NFC: composed accents, and folds
 * compatibility forms such as full-width letters), every run of whitespace one space, trimmed.
 */
export function normalText(s: string): string {
  return s.normalize('NFKC').replace(/\s+/gu, ' ').trim();
}

/** A query component decoded (`+` is a space), or as it is when it is not valid percent-encoding. */
function decodeComponent(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** A query string as its parameters, decoded and sorted: order and spelling of the encoding do not count. */
function queryParams(query: string): string[] {
  return query
    .replace(/^\?/, '')
    .split('&')
    .filter((p) => p !== '')
    .map((p) => {
      const eq = p.indexOf('=');
      return eq < 0
        ? `${normalText(decodeComponent(p))}`
        : `${normalText(decodeComponent(p.slice(0, eq)))}=${normalText(decodeComponent(p.slice(eq + 1)))}`;
    })
    .sort();
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** An absolute URL, parsed; undefined for anything else (a bare query string, a relative path). */
function parseUrl(s: string): URL | undefined {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(s.trim())) return undefined;
  try {
    return new URL(s.trim());
  } catch {
    return undefined;
  }
}

/**
 * Whether two tracking codes or URLs say the same (RFC 3986 6.2.2): scheme and host without case,
 * path and fragment percent-decoded, the query as a set of decoded parameters in any order.
 */
export function sameQueryOrUrl(sent: string, listed: string): boolean {
  const a = parseUrl(sent);
  const b = parseUrl(listed);
  if (a && b) {
    return (
      a.protocol === b.protocol &&
      a.host === b.host &&
      decodeComponent(a.pathname) === decodeComponent(b.pathname) &&
      decodeComponent(a.hash) === decodeComponent(b.hash) &&
      sameList(queryParams(a.search), queryParams(b.search))
    );
  }
  if (a || b) return normalText(sent) === normalText(listed);
  return sameList(queryParams(sent), queryParams(listed));
}

function sameValue(kind: FieldKind, sent: unknown, listed: unknown): boolean {
  switch (kind) {
    case 'number': {
      const a = Number(sent);
      const b = typeof listed === 'number' ? listed : typeof listed === 'string' ? Number(listed.trim()) : NaN;
      return Number.isFinite(a) && Number.isFinite(b) && Math.abs(a - b) <= NUMBER_TOLERANCE;
    }
    case 'instant': {
      // Not Date.parse: it reads a date-time without an offset as this computer's local time.
      const a = readServiceInstant(sent);
      const b = readServiceInstant(listed);
      if (a === undefined || b === undefined) return normalText(String(sent)) === normalText(String(listed));
      return sameServiceInstant(a, b, INSTANT_TOLERANCE_MS);
    }
    case 'surface':
      return surface(String(sent).trim().toUpperCase()) === surface(String(listed).trim().toUpperCase());
    case 'enum':
      // DECISIONS client 18: enum values shown in one case are compared without case.
      return normalText(String(sent)).toUpperCase() === normalText(String(listed)).toUpperCase();
    case 'query':
      return sameQueryOrUrl(String(sent), String(listed));
    case 'text':
      return normalText(String(sent)) === normalText(String(listed));
  }
}

/** Whether a campaign (listed by the service, or cached) could be the one `sent` created. */
export function campaignMatchesCreate(candidate: Campaign, sent: CampaignCreate): boolean {
  for (const [field, kind] of CREATE_FIELD_ENTRIES) {
    const mine: unknown = sent[field];
    // Not sent (or sent as "none"): whatever the service filled in says nothing.
    if (mine === undefined || mine === null) continue;
    const theirs: unknown = (candidate as Record<string, unknown>)[field];
    // Sent but not listed: a service may drop a value it does not keep (cpc of MAX_CONVERSIONS).
    if (theirs === undefined || theirs === null) continue;
    if (!sameValue(kind, mine, theirs)) return false;
  }
  return true;
}

/**
 * How far before our first send (on the service's clock) an immediate push's task may be stamped:
 * the service's clock is known to about a second, but older notes kept our own clock's times.
 */
export const IMMEDIATE_SKEW_MS = 5 * 60_000;

const sameText = (sent: string | undefined, listed: string | null | undefined) =>
  sent === undefined || listed === undefined || listed === null || normalText(sent) === normalText(listed);
const sameUrl = (sent: string | undefined, listed: string | null | undefined) =>
  sent === undefined || listed === undefined || listed === null || sameQueryOrUrl(sent, listed);

/**
 * Whether a listed task is one that `ev` (sent to `appId` in `mode`) would have created.
 * `firstSentAt` is on the service's clock. A scheduled push carries its time; an immediate one
 * runs when the service takes it, so it matches tasks executed since shortly before the first
 * send (or at the past time it named, if the service kept that).
 */
export function taskMatches(task: Task, ev: PushEvent, appId: string, mode: PushMode, firstSentAt: number): boolean {
  if (task.tagId !== appId || !isServiceValue(task.taskType, mode)) return false;
  if (!sameText(ev.title, task.title) || !sameUrl(ev.url, task.url) || !sameText(ev.performer, task.performer)) return false;
  if (!sameText(ev.itemDescription, task.itemDescription)) return false;
  const at = task.executionTime;
  const nearSent = ev.executionTime === undefined ? false : executionNear(task, ev.executionTime);
  // A scheduled task whose time the service did not write in a form that names an instant (only
  // its formatted text, and that without an offset, or nothing) is no evidence against a match.
  if (mode === 'scheduled') return nearSent !== false;
  if (typeof at !== 'number') return true;
  return nearSent === true || at >= firstSentAt - IMMEDIATE_SKEW_MS;
}

/**
 * Whether a task runs at `sentMs` (to the second, or the precision the service wrote): from its
 * epoch time, else from its formatted text — which may be a wall time without an offset, then the
 * same at some offset (service-dates.ts). Undefined when the task holds no time the client can read.
 */
function executionNear(task: Task, sentMs: number): boolean | undefined {
  if (typeof task.executionTime === 'number') return Math.abs(task.executionTime - sentMs) < INSTANT_TOLERANCE_MS;
  const written = readServiceInstant(task.executionTimeFormatted);
  if (written === undefined) return undefined;
  return sameServiceInstant({ ms: sentMs, zoned: true, precisionMs: 1 }, written, INSTANT_TOLERANCE_MS);
}

/**
 * Whether a task already holds what `update` sets: a resend refused because the task is no longer
 * a future one may have been refused because our first attempt worked. Images are not compared
 * (the service rewrites their addresses). Null when the update sets nothing comparable.
 */
export function taskHasUpdate(task: Task, update: TaskUpdate): boolean | null {
  let compared = 0;
  for (const field of ['title', 'performer', 'itemDescription'] as const) {
    const mine = update[field];
    if (mine === undefined) continue;
    compared++;
    const theirs = task[field];
    if (typeof theirs !== 'string' || normalText(theirs) !== normalText(mine)) return false;
  }
  if (update.executionTime !== undefined) {
    const near = executionNear(task, update.executionTime);
    // A time the service did not write readably says nothing either way.
    if (near === false) return false;
    if (near === true) compared++;
  }
  if (update.userTimeZone !== undefined) {
    compared++;
    if (task.userTimeZone !== update.userTimeZone) return false;
  }
  return compared > 0 ? true : null;
}

/** Apps a push event targets, each once. */
export function targetApps(ev: PushEvent): string[] {
  return [...new Set((ev.target?.include?.apps ?? []).map(String))];
}
