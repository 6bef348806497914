// The push composer's form model and its mapping to a push event (spec 2.4/2.5). The shared rules
// (pushEventProblems, which includes targetProblems) judge the event exactly as main will.
import { pushEventProblems, type PushEvent, type Segment, type Target } from '../../shared/domain/push';
import type { FieldProblem } from '../../shared/domain/campaign';
import type { PushDraftPayload } from '../../shared/ipc/contract';
import { msToWall, wallToMs } from './schedule';
import { chipValueProblem, normalizeChip } from './target-codes';

export const CHIP_ATTRIBUTES = ['countries', 'regions', 'languages', 'os', 'browsers', 'users', 'subscribed_age'] as const;
export type ChipAttribute = (typeof CHIP_ATTRIBUTES)[number];
export type Side = 'include' | 'exclude';

export interface SegmentForm {
  chips: Record<ChipAttribute, string[]>;
  userData: Record<string, string[]>;
}

export interface PushForm {
  title: string;
  url: string;
  itemDescription: string;
  thumbnailUrl: string;
  icon: string;
  performer: string;
  mode: 'immediate' | 'scheduled';
  /** datetime-local text, used when scheduled: a wall time in the zone of userTimeZone (UTC, or each subscriber's). */
  executionLocal: string;
  userTimeZone: 0 | 1;
  apps: string[];
  include: SegmentForm;
  exclude: SegmentForm;
}

const emptySegment = (): SegmentForm => ({
  chips: { countries: [], regions: [], languages: [], os: [], browsers: [], users: [], subscribed_age: [] },
  userData: {},
});

export const newPushForm = (): PushForm => ({
  title: '',
  url: '',
  itemDescription: '',
  thumbnailUrl: '',
  icon: '',
  performer: '',
  mode: 'immediate',
  executionLocal: '',
  userTimeZone: 0,
  apps: [],
  include: emptySegment(),
  exclude: emptySegment(),
});

/** Why a chip cannot be added, or null (target-codes.ts: ISO codes, numeric ids). */
export function chipProblem(attr: ChipAttribute, value: string): string | null {
  return chipValueProblem(attr, value);
}

export function addChip(f: PushForm, side: Side, attr: ChipAttribute, value: string): PushForm {
  const v = normalizeChip(attr, value);
  if (chipProblem(attr, v) !== null || f[side].chips[attr].includes(v)) return f;
  return { ...f, [side]: { ...f[side], chips: { ...f[side].chips, [attr]: [...f[side].chips[attr], v] } } };
}

export function removeChip(f: PushForm, side: Side, attr: ChipAttribute, value: string): PushForm {
  return { ...f, [side]: { ...f[side], chips: { ...f[side].chips, [attr]: f[side].chips[attr].filter((x) => x !== value) } } };
}

export function setUserData(f: PushForm, side: Side, key: string, values: string[] | null): PushForm {
  const next = { ...f[side].userData };
  if (values === null || values.length === 0) delete next[key];
  else next[key] = values;
  return { ...f, [side]: { ...f[side], userData: next } };
}

function segmentOf(s: SegmentForm, apps?: string[]): Segment | undefined {
  const seg: Segment = {};
  if (apps && apps.length > 0) seg.apps = apps;
  for (const a of CHIP_ATTRIBUTES) {
    const v = s.chips[a];
    if (v.length === 0) continue;
    if (a === 'os' || a === 'browsers') seg[a] = v.map(Number);
    else seg[a] = v;
  }
  if (Object.keys(s.userData).length > 0) seg.user_data = s.userData;
  return Object.keys(seg).length > 0 ? seg : undefined;
}

/** The picker's text as the executionTime sent (its wall time in UTC; see schedule.ts). */
export function localToMs(text: string): number | undefined {
  return wallToMs(text);
}

export function formToEvent(f: PushForm): PushEvent {
  // The time zone choice belongs to scheduled pushes only; an immediate one goes with the default (0).
  const ev: PushEvent = { title: f.title, url: f.url, performer: f.performer, userTimeZone: f.mode === 'scheduled' ? f.userTimeZone : 0 };
  if (f.itemDescription !== '') ev.itemDescription = f.itemDescription;
  if (f.thumbnailUrl !== '') ev.thumbnailUrl = f.thumbnailUrl;
  if (f.icon !== '') ev.icon = f.icon;
  if (f.mode === 'scheduled') {
    const t = localToMs(f.executionLocal);
    if (t !== undefined) ev.executionTime = t;
  }
  const target: Target = {};
  const inc = segmentOf(f.include, f.apps);
  const exc = segmentOf(f.exclude);
  if (inc) target.include = inc;
  if (exc) target.exclude = exc;
  ev.target = target;
  return ev;
}

export function formToPayload(f: PushForm): PushDraftPayload {
  return { mode: f.mode, event: formToEvent(f) };
}

function segmentForm(seg: Segment | undefined): SegmentForm {
  const out = emptySegment();
  if (!seg) return out;
  for (const a of CHIP_ATTRIBUTES) {
    const v = seg[a];
    if (Array.isArray(v)) out.chips[a] = v.map(String);
  }
  const ud = seg.user_data;
  if (ud && typeof ud === 'object' && !Array.isArray(ud)) {
    for (const [k, v] of Object.entries(ud as Record<string, unknown>)) if (Array.isArray(v)) out.userData[k] = v.map(String);
  }
  return out;
}

export function payloadToForm(p: Partial<PushDraftPayload>): PushForm {
  const ev = p.event ?? {};
  const f = newPushForm();
  return {
    ...f,
    title: ev.title ?? '',
    url: ev.url ?? '',
    itemDescription: ev.itemDescription ?? '',
    thumbnailUrl: ev.thumbnailUrl ?? '',
    icon: ev.icon ?? ev.iconUrl ?? '',
    performer: ev.performer ?? '',
    mode: p.mode ?? 'immediate',
    executionLocal: ev.executionTime !== undefined ? msToWall(ev.executionTime) : '',
    userTimeZone: ev.userTimeZone === 1 ? 1 : 0,
    apps: (ev.target?.include?.apps ?? []).map(String),
    include: segmentForm(ev.target?.include),
    exclude: segmentForm(ev.target?.exclude),
  };
}

/** Every rule of the event, with the target's field names mapped to the builder's sections. */
export function pushFormProblems(f: PushForm, now: number): FieldProblem[] {
  const out = pushEventProblems(formToEvent(f), f.mode, now);
  if (f.mode === 'scheduled' && f.executionLocal.trim() !== '' && localToMs(f.executionLocal) === undefined) {
    out.push({ field: 'executionTime', message: 'executionTime is not a valid date and time' });
  }
  return out;
}

/** Images are shown in the preview only over https: what a browser would show the subscriber. */
export function previewImage(url: string): string | null {
  try {
    return new URL(url).protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/**
 * Apps a push targets that the connection's application list no longer holds: the service stopped
 * granting them (withdrawn), so the push would be refused. Judged only against a list that was read
 * (an empty one may simply not be fetched yet).
 */
export function withdrawnApps(picked: readonly string[], known: readonly { appId: string }[]): string[] {
  if (known.length === 0) return [];
  const have = new Set(known.map((a) => a.appId));
  return picked.filter((id) => !have.has(id));
}

export function withdrawnAppProblems(picked: readonly string[], known: readonly { appId: string }[]): FieldProblem[] {
  return withdrawnApps(picked, known).map((id) => ({
    field: 'target.include.apps',
    message: `App ${id} is no longer available to this connection (the service does not list it any more): remove it from the target.`,
  }));
}
