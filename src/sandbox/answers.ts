// How stored records are written in the API's answers. Records are kept in one canonical form
// (UTC times, plain numbers); the variants that change only the spelling of an answer (date
// offsets, decimal points) are applied here, on the way out, so no route can forget them.
import { jsonReply, type Reply, type ReplyHeaders } from './http';
import { stringifyAnswer, toJson } from './json-writer';
import type { CampaignRecord, TaskRecord } from './records';
import type { DateForm, Variants } from './variants';

/** The interface's decimal fields (spec 2.1): whole values are `3000.0` under decimal_point. */
export const DECIMAL_FIELDS: ReadonlySet<string> = new Set(['cpc', 'daily_cap', 'spending_limit', 'spent']);

const JSON_TYPE = 'application/json; charset=utf-8';

/** A 200 (or other) JSON answer of the service, spelled as the variants say. */
export function answer(variants: Variants, status: number, value: unknown, headers?: ReplyHeaders): Reply {
  if (!variants.decimal_point) return jsonReply(status, value, headers);
  return { status, headers: { 'content-type': JSON_TYPE, ...headers }, body: stringifyAnswer(value, DECIMAL_FIELDS) };
}

/**
 * A write that succeeded, answered as the write_answer variant says: 200 with an empty body
 * (`empty`), 204 No Content (`no_content`) or 202 Accepted with an empty body (`accepted`; the
 * write is applied all the same). Headers (rate limits, Location) are kept, the content type
 * dropped with the body. Without the variant, `reply` as it is.
 */
export function writeAnswer(variants: Variants, reply: Reply): Reply {
  const mode = variants.write_answer;
  if (mode === undefined) return reply;
  const { 'content-type': _type, ...headers } = reply.headers ?? {};
  if (mode === 'no_content') return { status: 204, headers };
  return { status: mode === 'accepted' ? 202 : 200, headers, body: '' };
}

/**
 * A listing answer of many rows, written as it is sent: `{"results":[...],"metadata":{...}}` (or the
 * envelope list_envelope plays), the
 * same text answer() would write for `{ results, metadata }` (rows are made one at a time by
 * `record`, so memory holds a write's worth of rows, not the answer). With `announceLength` every
 * row is written once first only to count the bytes (cut_body announces the whole length).
 */
export function listingAnswer<T>(
  variants: Variants,
  rows: readonly T[],
  record: (row: T) => Record<string, unknown>,
  metadata: ListingMetadata,
  headers: ReplyHeaders | undefined,
  opts: { announceLength?: boolean } = {},
): Reply {
  const text = (v: unknown) => (variants.decimal_point ? stringifyAnswer(v, DECIMAL_FIELDS) : toJson(v));
  // The envelope list_envelope plays, whatever the size: its members in its order, the results
  // streamed where they stand (a stand-in row tells listingEnvelope they are not empty).
  const envelope = listingEnvelope(variants, rows.length > 0 ? [null] : [], metadata);
  function* pieces(): Generator<string> {
    let first = true;
    for (const [key, value] of Object.entries(envelope)) {
      yield `${first ? '{' : ','}${JSON.stringify(key)}:`;
      first = false;
      if (key !== 'results' || value === null) {
        yield text(value);
        continue;
      }
      yield '[';
      for (let i = 0; i < rows.length; i++) yield i === 0 ? text(record(rows[i])) : `,${text(record(rows[i]))}`;
      yield ']';
    }
    yield first ? '{}' : '}';
  }
  let streamLength: number | undefined;
  if (opts.announceLength) {
    streamLength = 0;
    for (const p of pieces()) streamLength += Buffer.byteLength(p);
  }
  return { status: 200, headers: { 'content-type': JSON_TYPE, ...headers }, stream: pieces, streamLength };
}

const offsetMinutes = (offset: string): number => {
  const sign = offset.startsWith('-') ? -1 : 1;
  const [hours, minutes] = offset.slice(1).split(':').map(Number);
  return sign * (hours * 60 + minutes);
};

/**
 * An instant as ISO 8601 with milliseconds: `Z` by default, or the wall time at the date_offset
 * variant's offset followed by that offset (the same instant, `2026-11-21T14:30:00.000+05:30`).
 * Under date_form, in that spelling instead (`epoch_ms` is not text: see campaignAnswer).
 */
export function formatInstant(ms: number, offset: string | undefined, form?: DateForm): string {
  const wall = new Date(ms + (offset === undefined ? 0 : offsetMinutes(offset)) * 60_000).toISOString();
  // Split at the T, not at fixed places: a wall time past 9999 (the last instant of 9999 seen from
  // +14:00) is written with an extended year, "+010000-01-01T13:59:59.999".
  const at = wall.indexOf('T');
  const date = wall.slice(0, at);
  let time = wall.slice(at + 1, -1);
  let zone = offset ?? 'Z';
  let separator = 'T';
  switch (form) {
    case 'seconds':
      time = time.slice(0, 8);
      break;
    case 'micros':
      time = `${time}000`;
      break;
    case 'minutes':
      // Reduced precision (ISO 8601 allows it): the seconds are dropped, as a service storing minutes would.
      time = time.slice(0, 5);
      break;
    case 'plus_zero':
      if (zone === 'Z') zone = '+00:00';
      break;
    case 'space':
      separator = ' ';
      break;
    case 'no_zone':
      zone = '';
      break;
    default:
      break;
  }
  return `${date}${separator}${time}${zone}`;
}

/** A stored date-time string in the answer's spelling; text that is not a date-time is left as it is. */
function restamp(iso: string | null, variants: Variants): string | number | null {
  if (iso === null) return iso;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  return variants.date_form === 'epoch_ms' ? ms : formatInstant(ms, variants.date_offset, variants.date_form);
}

/**
 * A campaign as create (id a number) or a listing (id a string, with advertiser_name in a network
 * listing) answers it. daily_cap is typed a number (spec 2.1), so a campaign without one has no
 * daily_cap key rather than a null.
 */
export function campaignAnswer(r: CampaignRecord, variants: Variants, listing?: { advertiserName?: string }): Record<string, unknown> {
  const { id, advertiser_id, ...rest } = r;
  const out: Record<string, unknown> = { id: listing === undefined ? id : String(id), advertiser_id };
  if (listing?.advertiserName !== undefined) out.advertiser_name = listing.advertiserName;
  Object.assign(out, rest);
  // Left out of the JSON (both writers drop undefined members); cheaper than delete on a hot path.
  if (r.daily_cap === null) out.daily_cap = undefined;
  if (variants.date_offset !== undefined || variants.date_form !== undefined) {
    // Assigning existing keys keeps their place: the field order stays fixed.
    out.start_date = restamp(r.start_date, variants);
    out.created_at = restamp(r.created_at, variants);
  }
  if (variants.enum_case !== undefined) {
    for (const k of CAMPAIGN_ENUM_FIELDS) if (typeof out[k] === 'string') out[k] = inCase(out[k] as string, variants.enum_case);
  }
  return variants.omit_empty ? withoutEmpty(out) : out;
}

/** The campaign fields that hold enum values (spec 2.1 shows each in capitals). */
const CAMPAIGN_ENUM_FIELDS = [
  'status',
  'pricing_model',
  'spending_limit_model',
  'bid_strategy',
  'marketing_objective',
  'daily_ad_delivery_model',
  'campaign_item_type',
] as const;

/** enum_case: an enum value written in another case than the interface shows it. */
function inCase(value: string, spelling: NonNullable<Variants['enum_case']>): string {
  if (spelling === 'upper') return value.toUpperCase();
  if (spelling === 'lower') return value.toLowerCase();
  return value.charAt(0).toUpperCase() + value.slice(1).toLowerCase();
}

/**
 * omit_empty: a field whose value is null or empty text is left out (spec 2.1 and 2.6 show the
 * fields, not that an empty one is written). Marked undefined, which both JSON writers drop.
 */
function withoutEmpty<T extends object>(record: T): T {
  const out = { ...record };
  for (const [k, v] of Object.entries(out)) if (v === null || v === '') (out as Record<string, unknown>)[k] = undefined;
  return out;
}

/** A task record (spec 2.6) with its formatted times in the answer's offset. */
export function taskAnswer(r: TaskRecord, variants: Variants): Record<string, unknown> {
  const offset = variants.date_offset;
  // The *Formatted fields are text by name: epoch_ms leaves them in the default spelling.
  const form = variants.date_form === 'epoch_ms' ? undefined : variants.date_form;
  const spelled =
    offset === undefined && form === undefined
      ? r
      : {
          ...r,
          taskUpdateTimeFormatted: formatInstant(r.taskUpdateTime, offset, form),
          executionTimeFormatted: formatInstant(r.executionTime, offset, form),
        };
  const spelling = variants.enum_case;
  // task_status_spelling: the American spelling of the one status that has two.
  const status = variants.task_status_spelling === 'us' && spelled.taskStatus === 'cancelled' ? 'canceled' : spelled.taskStatus;
  // Written, not stored: an answer, no longer a TaskRecord (its enum values may be in another case).
  const written: Record<string, unknown> =
    spelling === undefined
      ? status === spelled.taskStatus
        ? spelled
        : { ...spelled, taskStatus: status }
      : { ...spelled, taskType: inCase(spelled.taskType, spelling), taskStatus: inCase(status, spelling) };
  const timed = variants.task_times === undefined ? written : withTaskTimes(written, r, variants.task_times);
  return variants.omit_empty ? withoutEmpty(timed) : timed;
}

/**
 * task_times: the epoch times of a task written another way; the `*Formatted` texts are left as
 * they are (they carry the instant when the numbers are left out).
 */
function withTaskTimes(
  written: Record<string, unknown>,
  r: TaskRecord,
  form: NonNullable<Variants['task_times']>,
): Record<string, unknown> {
  const time = (ms: number): unknown =>
    form === 'formatted_only' ? undefined : form === 'iso' ? new Date(ms).toISOString() : Math.floor(ms / 1000);
  return { ...written, executionTime: time(r.executionTime), taskUpdateTime: time(r.taskUpdateTime) };
}

/** The listing's metadata (spec 2.2: total and count, plus more fields). */
export interface ListingMetadata {
  total: number;
  count: number;
  page: number;
  page_size: number;
}

/**
 * The campaign listing's envelope (spec 2.2), in the shape list_envelope plays: metadata first,
 * an empty results as null or left out, the metadata's numbers as text, or without count.
 */
export function listingEnvelope(variants: Variants, results: unknown[], metadata: ListingMetadata): Record<string, unknown> {
  const shape = variants.list_envelope;
  const empty = results.length === 0;
  const written: Record<string, unknown> =
    shape === 'text_counts'
      ? Object.fromEntries(Object.entries(metadata).map(([k, v]) => [k, String(v)]))
      : shape === 'no_count'
        ? { total: metadata.total, page: metadata.page, page_size: metadata.page_size }
        : { ...metadata };
  if (shape === 'metadata_first') return { metadata: written, results };
  if (empty && shape === 'null_empty') return { results: null, metadata: written };
  if (empty && shape === 'omit_empty') return { metadata: written };
  return { results, metadata: written };
}

/**
 * The create's answer: the created campaign (spec 4.1), or under create_answer the campaign under
 * a key, or without the fields the request sent (`sent`: the request body's keys).
 */
export function createdAnswer(variants: Variants, campaign: Record<string, unknown>, sent: readonly string[]): Record<string, unknown> {
  if (variants.create_answer === 'wrapped') return { campaign };
  if (variants.create_answer !== 'sparse') return campaign;
  const out = { ...campaign };
  for (const key of sent) if (key !== 'id' && key !== 'advertiser_id') out[key] = undefined;
  return out;
}
