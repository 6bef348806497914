// Chaos mode (`--variant chaos --seed N`, DECISIONS sandbox 15): at start, on reset and on
// PUT /_sandbox/variants, `chaos` is expanded into concrete variants picked from the seed, one
// legal choice at every point where the interface leaves the service free. Per-request choices are
// not made here: those variants draw from `core.choices` (src/sandbox/choices.ts), seeded by the
// same seed, so one number replays the whole service.
//
// One entry per variant. The table's type names every variant, so a variant added to
// variants.ts does not compile until it says what chaos picks for it (or why it never picks it).
// Each entry draws from a stream of its own (the seed mixed with the variant's name): adding or
// changing an entry leaves every other pick of a seed as it was, so a seed noted in a bug report
// still plays the same service after someone adds a variant.
import { Choices } from './choices';
import { COMPRESS_CHOICES } from './codings';
import { JSON_TEXTS } from './json-text';
import { DATE_FORMS, HTTP_DATE_FORMS, LIST_ENVELOPES, TASK_TIMES, type VariantName, type Variants } from './variants';

/** The seed chaos plays when none is given (the same default as the per-request choices). */
export const DEFAULT_CHAOS_SEED = 1;

type ChaosPick<K extends VariantName> = (r: Choices) => Variants[K] | undefined;
/** Every variant but the two that steer chaos itself. */
type ChaosTable = { [K in Exclude<VariantName, 'chaos' | 'seed'>]: ChaosPick<K> };

const MINUTE = 60_000;
/** Half the seeds play a variant at all: the defaults are legal choices too. */
const half = (r: Choices): boolean => r.chance(0.5);
const flag = (r: Choices): true | undefined => (half(r) ? true : undefined);
const oneOf =
  <T>(options: readonly T[]) =>
  (r: Choices): T | undefined =>
    half(r) ? r.pick(options) : undefined;

/** A numeric UTC offset the way RFC 3339 writes one, up to ±14:00 in quarter hours. */
function utcOffset(r: Choices): string {
  const quarters = r.int(-56, 56);
  const abs = Math.abs(quarters);
  const hh = String(Math.floor(abs / 4)).padStart(2, '0');
  const mm = String((abs % 4) * 15).padStart(2, '0');
  return `${quarters < 0 ? '-' : '+'}${hh}:${mm}`;
}

/**
 * What chaos picks for each variant: a legal value, or undefined for the default. Which sentence of
 * the interface makes each one legal: docs/sandbox.md, "Chaos".
 */
export const CHAOS_TABLE: ChaosTable = {
  // Short pages: often tiny (every listing pages), sometimes anything up to half the largest page.
  page_size_cap: (r) => (half(r) ? (half(r) ? r.int(1, 10) : r.int(11, 500)) : undefined),
  // A largest page the service serves, a refusal above it (the client's pages are up to 1,000).
  page_size_max: oneOf([10, 25, 50, 100, 200, 500] as const),
  page_past_end: oneOf(['not_found', 'bad_request'] as const),
  campaign_ids_max: oneOf([1, 5, 20, 50] as const),
  decimal_point: flag,
  date_offset: (r) => (half(r) ? utcOffset(r) : undefined),
  date_form: oneOf(DATE_FORMS),
  list_envelope: oneOf(LIST_ENVELOPES),
  refuse_null: flag,
  create_answer: oneOf(['wrapped', 'sparse'] as const),
  task_status_spelling: oneOf(['us'] as const),
  task_times: oneOf(TASK_TIMES),
  auth_apps_shape: oneOf(['null_publisher', 'wrapped', 'list'] as const),
  token_refused_403: flag,
  retry_after_date: flag,
  clock_offset_ms: (r) => (half(r) ? r.int(-15 * MINUTE, 15 * MINUTE) : undefined),
  problem_json: flag,
  error_shape: oneOf(['message_list'] as const),
  update_requires_performer: flag,
  task_list_wrapper: oneOf(['results', 'tasks', 'data', 'items', 'payload.items'] as const),
  empty_as_object: flag,
  omit_empty: flag,
  compress: oneOf(COMPRESS_CHOICES),
  redirect: oneOf([307, 308] as const),
  early_hints: flag,
  create_201: flag,
  write_answer: oneOf(['empty', 'no_content', 'accepted'] as const),
  fill_on_create: flag,
  // A lost write applied up to 10 s late: within the look-up's stated tolerance (two grace periods
  // of the request timeout, docs/architecture.md "Limits"); later than that no client can tell.
  late_apply_ms: (r) => (half(r) ? r.int(0, 10_000) : undefined),
  header_spelling: oneOf(['quoted', 'reordered', 'multiple_fields'] as const),
  windows: oneOf(['sliding_log', 'token_bucket'] as const),
  // Some answers without the headers, up to all but the 429s.
  rate_headers_dropped: (r) => (half(r) ? r.pick([0.1, 0.3, 0.5, 1]) : undefined),
  push_tier: (r) => (half(r) ? r.int(1, 6) : undefined),
  token_error_echo: flag,
  token_response: oneOf(['spelled', 'nulls'] as const),
  token_per_client: oneOf(['latest_only'] as const),
  token_client_auth: oneOf(['basic', 'basic_400', 'basic_invalid_request'] as const),
  authorize_state: oneOf(['dropped'] as const),
  enum_case: oneOf(['upper', 'lower', 'title'] as const),
  id_range: oneOf(['big'] as const),
  normalise_text: oneOf(['nfc', 'nfkc'] as const),
  reencode_urls: flag,
  id_order: oneOf(['ascending', 'descending', 'random'] as const),
  // A lag up to half the client's stated bound (listingLagMs, 60 s): beyond the bound a client is
  // allowed to call a change absent, and no client can tell a lag from an absence.
  listing_lag_ms: (r) => (half(r) ? r.int(0, 30_000) : undefined),
  refuse_sort: oneOf(['id', 'all'] as const),
  short_pages: flag,
  churn: (r) => (half(r) ? r.int(5, 30) / 100 : undefined),
  moving_order: flag,
  // A few percent of requests: the outbox gives a change up after 5 server errors in a row, and
  // at 15% that is one change in 13,000.
  transient_5xx: (r) => (half(r) ? r.int(2, 15) / 100 : undefined),
  cut_body: (r) => (half(r) ? r.int(5, 200) : undefined),
  // Real milliseconds (the suites run on a manual clock): a start slower than the client's
  // listingStartMs is played by test/main/sync/refresh-listing.test.ts, not here.
  slow_start: (r) => (half(r) ? r.int(10, 200) : undefined),
  push_answer: oneOf(['ids_text', 'wrapped', 'count', 'tasks'] as const),
  date_header: oneOf(HTTP_DATE_FORMS),
  // A few percent, as transient_5xx: a change is given up after 5 such answers in a row.
  request_timeout: (r) => (half(r) ? r.int(2, 10) / 100 : undefined),
  // Token requests are few (one per token's life and a renewal after each 401), so more often.
  token_unavailable: (r) => (half(r) ? r.int(5, 30) / 100 : undefined),
  json_text: oneOf(JSON_TEXTS),
};

/** FNV-1a of the name, mixed with the seed: each entry's own stream. */
function streamSeed(seed: number, name: string): number {
  let h = 0x811c9dc5 ^ (seed >>> 0);
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The variants chaos picks for a seed (only those not left at the default). */
export function chaosPicks(seed: number): Variants {
  const picked: Record<string, unknown> = {};
  for (const [name, pick] of Object.entries(CHAOS_TABLE) as [VariantName, (r: Choices) => unknown][]) {
    const value = pick(new Choices(streamSeed(seed, name)));
    if (value !== undefined) picked[name] = value;
  }
  return picked as Variants;
}

/**
 * `variants` with `chaos` expanded: the seed's picks under the variants given explicitly beside
 * chaos (those win). The result keeps `chaos` and states the seed, so what a run played can be
 * read back (GET /_sandbox/variants) and replayed. Without chaos, `variants` as they are.
 */
export function expandChaos(variants: Variants): Variants {
  if (variants.chaos !== true) return { ...variants };
  const seed = variants.seed ?? DEFAULT_CHAOS_SEED;
  return { ...chaosPicks(seed), ...variants, seed };
}
