// The push composer's form model and its mapping to a push event (spec 2.4/2.5). The shared rules
// (pushEventProblems, which includes targetProblems) judge the event exactly as main will.
import { pushEventProblems, type PushEvent, type Segment, type Target } from '../../../shared/domain/push';
import type { FieldProblem } from '../../../shared/domain/campaign';
import type { PushDraftPayload } from '../../../shared/ipc/contract';
import { isoToLocalInput } from '../drafts/campaign-form';

export const CHIP_ATTRIBUTES = ['countries', 'regions', 'languages', 'os', 'browsers', 'users', 'subscribed_age'] as const;
export type ChipAttribute = (typeof CHIP_ATTRIBUTES)[number];
export type Side = 'include' | 'exclude';
const NUMERIC: ReadonlySet<ChipAttribute> = new Set(['os', 'browsers']);

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
  /** datetime-local text, used when scheduled. */
  executionLocal: string;
  userTimeZone: 0 | 1;
  apps: string[];
  include: SegmentForm;
  exclude: SegmentForm;
}

const emptySegment = (): SegmentForm => ({ chips: { countries: [], regions: [], languages: [], os: [], browsers: [], users: [], subscribed_age: [] }, userData: {} });

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

export const TITLE_HINT = { min: 50, max: 80 } as const;

/** Why a chip cannot be added, or null: numeric attributes take whole numbers only. */
export function chipProblem(attr: ChipAttribute, value: string): string | null {
  if (value.trim() === '') return 'Type a value first';
  if (NUMERIC.has(attr) && !/^\d+$/.test(value.trim())) return `${attr} takes numeric ids`;
  return null;
}

export function addChip(f: PushForm, side: Side, attr: ChipAttribute, value: string): PushForm {
  const v = value.trim();
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

export function localToMs(text: string): number | undefined {
  if (text.trim() === '') return undefined;
  const t = new Date(text).getTime();
  return Number.isNaN(t) ? undefined : t;
}

export function formToEvent(f: PushForm): PushEvent {
  const ev: PushEvent = { title: f.title, url: f.url, performer: f.performer, userTimeZone: f.userTimeZone };
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
    executionLocal: ev.executionTime !== undefined ? isoToLocalInput(new Date(ev.executionTime).toISOString()) : '',
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

export function titleHint(title: string): string | null {
  const n = title.length;
  if (n === 0) return null;
  if (n < TITLE_HINT.min) return `Titles of ${TITLE_HINT.min}-${TITLE_HINT.max} characters work best`;
  if (n > TITLE_HINT.max) return `Long titles may be cut; ${TITLE_HINT.min}-${TITLE_HINT.max} characters work best`;
  return null;
}
