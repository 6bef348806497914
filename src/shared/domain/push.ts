// Push rules shared by the sandbox (which enforces them with the spec's 7.1 messages) and the
// desk's composer (which shows them before anything is sent).
import { z } from 'zod';
import type { FieldProblem } from './campaign';
import { lenientNumberSchema, lenientRequiredTextSchema, lenientTextSchema, serviceIdSchema } from './service-id';
import { readEpochMs, serviceEpochMsSchema } from './service-dates';

export const MAX_TITLE_LENGTH = 140;
export const MAX_TARGET_APPS = 200;
/** Spec 7.1: the message for a body that is not JSON or has a field of the wrong type. */
export const MALFORMED_MESSAGE = 'Malformed JSON or type mismatch';
export const NOT_AUTHORIZED_APP_MESSAGE = 'Not authorized to send notifications for specified application';
export const RESERVED_ATTRIBUTE = 'is_push_delivery_active';

/** Segment attributes of include/exclude (spec 2.5) and the element type each holds. */
export const TARGET_ATTRIBUTES = {
  apps: 'string',
  countries: 'string',
  regions: 'string',
  languages: 'string',
  os: 'number',
  browsers: 'number',
  users: 'string',
  subscribed_age: 'string',
} as const;
export type TargetAttribute = keyof typeof TARGET_ATTRIBUTES | 'user_data';

/** An app id in a request: a string, or a number as its digits while it is exact (service-id.ts). */
const idString = z.union([
  z.string(),
  z
    .number()
    .refine(Number.isSafeInteger)
    .transform((n) => String(n)),
]);

/**
 * Whether `name` is a top-level attribute of include/exclude (spec 2.5). Own keys only: `in` would
 * also find `constructor`, `toString` and every other name on Object.prototype.
 */
export function isTargetAttribute(name: string): boolean {
  return name === 'user_data' || Object.hasOwn(TARGET_ATTRIBUTES, name);
}

export const unsupportedAttributeMessage = (name: string): string => `Unsupported targeting attribute: ${name}`;
/** Marks the schema issue of rule 4, so that a server can answer it with its own message. */
const UNSUPPORTED_ATTRIBUTE_ISSUE = 'unsupported_targeting_attribute';

/**
 * A `__proto__` key (an own property of JSON.parse's result) cannot survive parsing: an object
 * schema leaves it out of its output, since assigning it would set the output's prototype, so rule
 * 4 would never see it. It is refused while the object as sent is still at hand.
 */
function refuseProtoKey(raw: unknown, ctx: z.core.$RefinementCtx): unknown {
  if (typeof raw === 'object' && raw !== null && Object.hasOwn(raw, '__proto__')) {
    ctx.addIssue({
      code: 'custom',
      path: ['__proto__'],
      message: unsupportedAttributeMessage('__proto__'),
      params: { rule: UNSUPPORTED_ATTRIBUTE_ISSUE },
    });
  }
  return raw;
}

/** What a push body that fails its schema earns: rule 4's message for a `__proto__` attribute, else spec 7.1's. */
export function schemaFailureMessage(error: z.ZodError): string {
  const unsupported = error.issues.find((i) => i.code === 'custom' && i.params?.rule === UNSUPPORTED_ATTRIBUTE_ISSUE);
  return unsupported?.message ?? MALFORMED_MESSAGE;
}

/** The fields of a segment (include or exclude). Unknown keys are kept so the rules can name them. */
const segmentFields = z.looseObject({
  apps: z.array(idString).optional(),
  countries: z.array(z.string()).optional(),
  regions: z.array(z.string()).optional(),
  languages: z.array(z.string()).optional(),
  os: z.array(z.number()).optional(),
  browsers: z.array(z.number()).optional(),
  users: z.array(z.string()).optional(),
  subscribed_age: z.array(z.string()).optional(),
  user_data: z.unknown().optional(),
});
export const segmentSchema = z.preprocess(refuseProtoKey, segmentFields);
export type Segment = z.infer<typeof segmentSchema>;

export const targetSchema = z.looseObject({
  include: segmentSchema.optional(),
  exclude: segmentSchema.optional(),
});
export type Target = z.infer<typeof targetSchema>;

/** A push event's types (spec 2.4). A value of the wrong type is the spec's "type mismatch". */
export const pushEventSchema = z.object({
  title: z.string().optional(),
  url: z.string().optional(),
  performer: z.string().optional(),
  target: targetSchema.optional(),
  thumbnailUrl: z.string().optional(),
  icon: z.string().optional(),
  iconUrl: z.string().optional(),
  itemDescription: z.string().optional(),
  executionTime: z.number().int().optional(),
  userTimeZone: z.number().int().optional(),
});
export type PushEvent = z.infer<typeof pushEventSchema>;

export const pushRequestSchema = z.object({ pushEvents: z.array(z.unknown()) });

export type PushMode = 'immediate' | 'scheduled';

export function isValidUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return (u.protocol.length > 1 && u.host !== '') || u.protocol === 'mailto:';
  } catch {
    return false;
  }
}

export function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.host !== '';
  } catch {
    return false;
  }
}

function problemsOfUserData(where: string, v: unknown): FieldProblem[] {
  const field = `target.${where}.user_data`;
  if (v === undefined) return [];
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    return [{ field, message: 'user_data must be an object mapping attribute names to arrays of strings' }];
  }
  const out: FieldProblem[] = [];
  for (const [name, values] of Object.entries(v as Record<string, unknown>)) {
    if (name === RESERVED_ATTRIBUTE) {
      out.push({ field, message: `${RESERVED_ATTRIBUTE} is reserved for the service and cannot be used for targeting` });
      continue;
    }
    const ok =
      Array.isArray(values) &&
      values.length > 0 &&
      values.every((x) => (typeof x === 'string' && x !== '') || (typeof x === 'number' && Number.isFinite(x)));
    if (!ok) out.push({ field, message: `user_data attribute ${name} must be a non-empty array of strings` });
  }
  return out;
}

/** Rules 2.5 1-6 for a target. */
export function targetProblems(target: Target | undefined): FieldProblem[] {
  const out: FieldProblem[] = [];
  const apps = target?.include?.apps;
  if (apps === undefined || apps.length === 0) {
    out.push({ field: 'target.include.apps', message: 'target.include.apps cannot be empty' });
  } else if (apps.length > MAX_TARGET_APPS) {
    out.push({ field: 'target.include.apps', message: `target.include.apps cannot contain more than ${MAX_TARGET_APPS} apps` });
  }
  for (const where of ['include', 'exclude'] as const) {
    const seg = target?.[where];
    if (!seg) continue;
    for (const key of Object.keys(seg)) {
      if (key === RESERVED_ATTRIBUTE) {
        out.push({
          field: `target.${where}`,
          message: `${RESERVED_ATTRIBUTE} is reserved for the service and cannot be used for targeting`,
        });
      } else if (key === 'apps' && where === 'exclude') {
        out.push({ field: 'target.exclude', message: 'Unsupported targeting attribute: apps (apps can only be included)' });
      } else if (!isTargetAttribute(key)) {
        out.push({ field: `target.${where}`, message: unsupportedAttributeMessage(key) });
      }
    }
    out.push(...problemsOfUserData(where, seg.user_data));
  }
  const inc = target?.include;
  const exc = target?.exclude;
  if (inc && exc) {
    for (const key of Object.keys(TARGET_ATTRIBUTES)) {
      const a = inc[key as keyof Segment];
      const b = exc[key as keyof Segment];
      if (Array.isArray(a) && a.length > 0 && Array.isArray(b) && b.length > 0) {
        out.push({ field: `target.${key}`, message: `Targeting attribute ${key} cannot have values in both include and exclude` });
      }
    }
    const ia = inc.user_data;
    const ea = exc.user_data;
    if (ia && ea && typeof ia === 'object' && typeof ea === 'object') {
      // user_data names are free-form ("constructor" is a fine one): own keys only, never the prototype's.
      for (const name of Object.keys(ia)) {
        if (Object.hasOwn(ea, name)) {
          out.push({
            field: 'target.user_data',
            message: `user_data attribute ${name} cannot be used in both include and exclude`,
          });
        }
      }
    }
  }
  return out;
}

/**
 * Every rule of one push event (spec 2.4, 2.5, 4.6) in the spec's message wording. `now` is the
 * service clock in ms: a scheduled push must lie after it, an immediate one must not.
 */
export function pushEventProblems(ev: PushEvent, mode: PushMode, now: number): FieldProblem[] {
  const out: FieldProblem[] = [];
  if (ev.title === undefined || ev.title.trim() === '') out.push({ field: 'title', message: 'title cannot be empty' });
  else if (ev.title.length > MAX_TITLE_LENGTH) out.push({ field: 'title', message: `title is too long (max ${MAX_TITLE_LENGTH})` });
  if (ev.url === undefined || ev.url.trim() === '') out.push({ field: 'url', message: 'url cannot be empty' });
  if (ev.performer === undefined || ev.performer.trim() === '') out.push({ field: 'performer', message: 'performer cannot be empty' });
  if (ev.thumbnailUrl !== undefined && !isValidUrl(ev.thumbnailUrl)) {
    out.push({ field: 'thumbnailUrl', message: 'thumbnailUrl must be a valid URL' });
  }
  const icon = ev.icon ?? ev.iconUrl;
  if (icon !== undefined && !isHttpUrl(icon)) out.push({ field: 'icon', message: 'iconUrl must be an HTTP/HTTPS URL' });
  out.push(...userTimeZoneProblems(ev.userTimeZone));
  out.push(...targetProblems(ev.target));
  if (mode === 'scheduled') {
    if (ev.executionTime === undefined) {
      out.push({ field: 'executionTime', message: 'executionTime is required for scheduled push' });
    } else if (ev.executionTime <= now) {
      out.push({ field: 'executionTime', message: 'executionTime must be in the future for scheduled push' });
    }
  } else if (ev.executionTime !== undefined && ev.executionTime > now) {
    out.push({
      field: 'executionTime',
      message: 'executionTime must not be in the future for immediate push; send it as a scheduled push',
    });
  }
  return out;
}

function userTimeZoneProblems(v: number | undefined): FieldProblem[] {
  return v === undefined || v === 0 || v === 1
    ? []
    : [{ field: 'userTimeZone', message: 'userTimeZone must be 0 (UTC) or 1 (local time zone)' }];
}

/** PATCH /epsilon/task/{taskId} body (spec 4.6): any of these fields, nothing else. */
export const taskUpdateSchema = z.strictObject({
  title: z.string().optional(),
  thumbnailUrl: z.string().optional(),
  icon: z.string().optional(),
  userTimeZone: z.number().int().optional(),
  itemDescription: z.string().optional(),
  executionTime: z.number().int().optional(),
  performer: z.string().optional(),
});
export type TaskUpdate = z.infer<typeof taskUpdateSchema>;

export function taskUpdateProblems(u: TaskUpdate, now: number): FieldProblem[] {
  const out: FieldProblem[] = [];
  if (Object.keys(u).length === 0) out.push({ field: 'task', message: 'Nothing to update: send at least one field' });
  if (u.title !== undefined) {
    if (u.title.trim() === '') out.push({ field: 'title', message: 'title cannot be empty' });
    else if (u.title.length > MAX_TITLE_LENGTH) out.push({ field: 'title', message: `title is too long (max ${MAX_TITLE_LENGTH})` });
  }
  if (u.performer !== undefined && u.performer.trim() === '') out.push({ field: 'performer', message: 'performer cannot be empty' });
  if (u.thumbnailUrl !== undefined && !isValidUrl(u.thumbnailUrl))
    out.push({ field: 'thumbnailUrl', message: 'thumbnailUrl must be a valid URL' });
  if (u.icon !== undefined && !isHttpUrl(u.icon)) out.push({ field: 'icon', message: 'iconUrl must be an HTTP/HTTPS URL' });
  out.push(...userTimeZoneProblems(u.userTimeZone));
  if (u.executionTime !== undefined && u.executionTime <= now) {
    out.push({ field: 'executionTime', message: 'executionTime must be in the future for scheduled push' });
  }
  return out;
}

/** PATCH /epsilon/container/sw-path body (spec 2.8). */
export const swPathSchema = z.object({
  containerId: idString.optional(),
  serviceWorkerPath: z.string().optional(),
  performer: z.string().optional(),
});
export type SwPathRequest = z.infer<typeof swPathSchema>;

export function swPathProblems(r: SwPathRequest): FieldProblem[] {
  const out: FieldProblem[] = [];
  if (r.containerId === undefined || r.containerId.trim() === '')
    out.push({ field: 'containerId', message: 'containerId cannot be empty' });
  if (r.serviceWorkerPath === undefined || r.serviceWorkerPath.trim() === '') {
    out.push({ field: 'serviceWorkerPath', message: 'serviceWorkerPath cannot be empty' });
  } else if (!r.serviceWorkerPath.startsWith('/') || r.serviceWorkerPath.startsWith('//')) {
    out.push({ field: 'serviceWorkerPath', message: 'serviceWorkerPath must be a path relative to the domain root, starting with /' });
  }
  if (r.performer === undefined || r.performer.trim() === '') out.push({ field: 'performer', message: 'performer cannot be empty' });
  return out;
}

export const TASK_TYPES = ['immediate', 'scheduled'] as const;
export const KNOWN_TASK_STATUSES = ['active', 'pending', 'completed', 'cancelled', 'failed'] as const;

/**
 * A task record (spec 2.6), parsed liberally: unknown fields and statuses are kept. Its times are
 * epoch milliseconds after parsing, however the service wrote them (service-dates.ts), and one left
 * out is read from its `*Formatted` text (the same instant, which 2.6 gives beside it).
 */
export const taskSchema = z
  .looseObject({
    taskId: serviceIdSchema,
    tagId: serviceIdSchema,
    // Every other field is read liberally (service-id.ts): an odd value is left out, never a reason
    // to refuse the task list it came in.
    taskType: lenientRequiredTextSchema,
    taskStatus: lenientRequiredTextSchema,
    taskUpdateTime: serviceEpochMsSchema.optional(),
    taskUpdateTimeFormatted: lenientTextSchema.optional(),
    executionTime: serviceEpochMsSchema.optional(),
    executionTimeFormatted: lenientTextSchema.optional(),
    method: lenientTextSchema.optional(),
    videoId: lenientTextSchema.optional(),
    forcedItemPolicy: lenientTextSchema.optional(),
    userTimeZone: lenientNumberSchema.optional(),
    title: lenientTextSchema.optional(),
    url: lenientTextSchema.optional(),
    thumbnailUrl: lenientTextSchema.optional(),
    iconUrl: lenientTextSchema.optional(),
    performer: lenientTextSchema.optional(),
    itemDescription: lenientTextSchema.optional(),
  })
  .transform((t) => ({
    ...t,
    executionTime: typeof t.executionTime === 'number' ? t.executionTime : (readEpochMs(t.executionTimeFormatted) ?? t.executionTime),
    taskUpdateTime: typeof t.taskUpdateTime === 'number' ? t.taskUpdateTime : (readEpochMs(t.taskUpdateTimeFormatted) ?? t.taskUpdateTime),
  }));
export type Task = z.infer<typeof taskSchema>;

/** One array found in a task-list answer (its place and what its elements held). */
export interface FoundArray {
  /** Where it is: `''` for a bare array, `items`, `data.tasks`. */
  path: string;
  /** Its elements that are task records (objects with a `taskId`), parsed. */
  tasks: Task[];
  /** Its elements that are anything else. */
  others: number;
}

/**
 * Which array of an answer is the task list (DECISIONS client 5, 17): the wrapper is not shown
 * (spec 4.6 note 2), so the list is read by content, wherever it is: the one array of task records
 * (a bare array, or under any key, nested one level, with metadata beside it). An answer with no
 * such array lists no tasks (`{}`, `{"items": []}`, or an empty array left out). Several arrays of
 * task records, or one that mixes tasks with other values, cannot be told apart: the reason is
 * returned instead.
 */
export function pickTaskList(arrays: readonly FoundArray[]): { tasks: Task[] } | { unreadable: string } {
  const name = (a: FoundArray) => (a.path === '' ? 'the answer itself' : `"${a.path}"`);
  const mixed = arrays.find((a) => a.tasks.length > 0 && a.others > 0);
  if (mixed) return { unreadable: `the list ${name(mixed)} mixes task records with other values` };
  const lists = arrays.filter((a) => a.tasks.length > 0);
  if (lists.length > 1)
    return { unreadable: `it holds several lists of tasks (${lists.map(name).join(', ')}) and none says which is the list` };
  return { tasks: lists[0]?.tasks ?? [] };
}

/** Whether an element of a task-list answer is meant as a task record (whether or not it is a valid one). */
export function isTaskLike(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, 'taskId');
}

/**
 * Authorized applications (spec 2.7: a map of application id to publisher name), read liberally:
 * a publisher not given (null, missing, a number) is kept as text or empty, and the map may come
 * wrapped under one key or as a list of records (`app_id`/`appId`/`id`, `publisher`/`name`), with
 * ids as numbers or text. The result is always id (text) -> publisher (text).
 */
export const authAppsSchema: z.ZodType<Record<string, string>> = z.unknown().transform((v, ctx) => {
  const out = readAuthApps(v, 0);
  if (out === null) {
    ctx.addIssue({ code: 'custom', message: 'not a map of application ids to publishers' });
    return z.NEVER;
  }
  return out;
});

const appIdOf = (v: unknown): string | null =>
  typeof v === 'string' && /^\d+$/.test(v.trim())
    ? v.trim()
    : typeof v === 'number' && Number.isSafeInteger(v) && v >= 0
      ? String(v)
      : null;
const publisherOf = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function readAuthApps(v: unknown, depth: number): Record<string, string> | null {
  if (Array.isArray(v)) {
    const out: Record<string, string> = {};
    for (const r of v) {
      if (!isRecord(r)) return null;
      const id = appIdOf(r.app_id ?? r.appId ?? r.id ?? r.tagId);
      if (id === null) return null;
      out[id] = publisherOf(r.publisher ?? r.name);
    }
    return out;
  }
  if (!isRecord(v)) return null;
  const entries = Object.entries(v);
  if (entries.every(([k, p]) => appIdOf(k) !== null && (p === null || typeof p === 'string' || typeof p === 'number'))) {
    return Object.fromEntries(entries.map(([k, p]) => [k.trim(), publisherOf(p)]));
  }
  // A wrapper: the one member that holds the map or the list.
  if (depth > 0) return null;
  const inner = entries.filter(([, p]) => typeof p === 'object' && p !== null);
  return inner.length === 1 ? readAuthApps(inner[0][1], depth + 1) : null;
}

// ---- Content recommendations (spec 4.6 note 7): hints, never rules -----------------------------

export const CONTENT_HINTS = {
  title: { min: 50, max: 80 },
  description: { min: 100, max: 150 },
  maxImageBytes: 200 * 1024,
  thumbnail: { minWidth: 300, minHeight: 200 },
  icon: { size: 192 },
  formats: ['jpeg', 'png', 'webp'],
} as const;

export type ImageRole = 'icon' | 'thumbnail';

export function titleLengthHint(title: string): string | null {
  const n = title.length;
  const { min, max } = CONTENT_HINTS.title;
  if (n === 0) return null;
  if (n < min) return `Titles of ${min}-${max} characters work best`;
  if (n > max) return `Long titles may be cut; ${min}-${max} characters work best`;
  return null;
}

export function descriptionLengthHint(text: string): string | null {
  const n = text.length;
  const { min, max } = CONTENT_HINTS.description;
  if (n === 0) return null;
  if (n < min) return `Descriptions of ${min}-${max} characters work best (${n} now)`;
  if (n > max) return `Long descriptions may be cut; ${min}-${max} characters work best (${n} now)`;
  return null;
}

/** What is known of an image: its address always, the rest once the main process has fetched it. */
export interface ImageFactsForHints {
  url: string;
  format?: string | null;
  bytes?: number | null;
  width?: number | null;
  height?: number | null;
}

/** The recommendations of 4.6 note 7 this image misses, in words a person can act on. */
export function imageHints(img: ImageFactsForHints, role: ImageRole): string[] {
  const out: string[] = [];
  if (img.url.trim() === '') return out;
  if (!/^https:\/\//i.test(img.url.trim())) out.push('Use an HTTPS address: browsers may not show images over plain HTTP');
  if (img.format != null && img.format !== '' && !(CONTENT_HINTS.formats as readonly string[]).includes(img.format)) {
    out.push(`JPEG, PNG or WebP are recommended (this one is ${img.format === 'other' ? 'another format' : img.format.toUpperCase()})`);
  }
  if (img.bytes != null && img.bytes > CONTENT_HINTS.maxImageBytes) {
    out.push(`Images under 200 KB are recommended (this one is ${Math.ceil(img.bytes / 1024)} KB)`);
  }
  if (img.width != null && img.height != null) {
    const size = `${img.width}x${img.height}`;
    if (role === 'thumbnail') {
      const { minWidth, minHeight } = CONTENT_HINTS.thumbnail;
      if (img.width < minWidth || img.height < minHeight)
        out.push(`A thumbnail of at least ${minWidth}x${minHeight} pixels is recommended (this one is ${size})`);
    } else {
      const s = CONTENT_HINTS.icon.size;
      if (img.width !== s || img.height !== s) out.push(`A square icon of ${s}x${s} pixels is recommended (this one is ${size})`);
    }
  }
  return out;
}
