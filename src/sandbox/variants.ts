// Service variants: wherever the interface leaves room, the real service may choose differently
// from our defaults (DECISIONS sandbox 13). Each key makes the sandbox play one such legal choice;
// all are off by default, so the default sandbox behaves exactly as docs/sandbox.md describes.
// They come from the fixtures (`variants`), the CLI (`--variant name[=value]`) or the control API
// (`PUT /_sandbox/variants`), and the client's tests run against a mix of them.
import { z } from 'zod';

const MAX_CLOCK_OFFSET_MS = 1e12;

export const variantsSchema = z.strictObject({
  /** Listings return at most this many rows per answer, whatever page_size asked (metadata stays true). */
  page_size_cap: z.number().int().positive().optional(),
  /** Whole decimals in answers are written with a point: `3000.0` instead of `3000`. */
  decimal_point: z.boolean().optional(),
  /** ISO date-times in answers use this numeric offset (`+05:30`) instead of `Z`. */
  date_offset: z
    .string()
    .regex(/^[+-](0\d|1[0-4]):[0-5]\d$/, 'must be an offset such as +05:30 or -08:00')
    .optional(),
  /** `Retry-After` is an HTTP-date (RFC 9110) instead of delay-seconds. */
  retry_after_date: z.boolean().optional(),
  /**
   * The service's clock runs this far ahead (positive) or behind (negative) of the sandbox clock;
   * at most about 31 years either way, so that every time stays a time.
   */
  clock_offset_ms: z.number().int().min(-MAX_CLOCK_OFFSET_MS).max(MAX_CLOCK_OFFSET_MS).optional(),
  /** Errors are `application/problem+json` (RFC 9457: type, title, status, detail), without `message`. */
  problem_json: z.boolean().optional(),
  /** A task update without `performer` is refused with 400. */
  update_requires_performer: z.boolean().optional(),
  /** The task list is an object holding the array under this key instead of a bare array. */
  task_list_wrapper: z.enum(['results', 'tasks', 'data']).optional(),
  /** A create answers 201 Created with a Location header instead of 200 (spec 4.1: "Success status code: not shown"). */
  create_201: z.boolean().optional(),
  /** A create fills in fields it was not sent and normalises the ones it was (see docs/sandbox.md). */
  fill_on_create: z.boolean().optional(),
  /** A write whose connection a `close_after` fault dropped is applied this many ms later, not at once. */
  late_apply_ms: z.number().int().nonnegative().optional(),
  /** Rate-limit headers in another legal spelling (see docs/sandbox.md). */
  header_spelling: z.enum(['quoted', 'reordered', 'multiple_fields']).optional(),
  /** How the windows refill: sliding logs (default) or token buckets (q tokens, refilled at q/w per second). */
  windows: z.enum(['sliding_log', 'token_bucket']).optional(),
  /**
   * The push API is rate-limited per client at this tier (spec 8.1's table, reads and writes
   * counted apart), with the campaign API's headers and 429s. Unlimited by default: the interface
   * does not show push limits.
   */
  push_tier: z.number().int().min(1).max(6).optional(),
  /** The token endpoint echoes the request's form body in its error descriptions. */
  token_error_echo: z.boolean().optional(),
  /**
   * Listings are paged over every campaign of the account and filtered afterwards (the ones the
   * query leaves out: another fetch_level, TERMINATED): a page may hold fewer rows than page_size,
   * or none, before the last. metadata.total counts the rows that match, as always.
   */
  short_pages: z.boolean().optional(),
  /**
   * Before each campaign listing of an account is answered, with this probability another user
   * creates a campaign in it or deletes one of its listed campaigns (half each, from `seed`).
   */
  churn: z.number().min(0).max(1).optional(),
  /**
   * Without `sort`, a listing is ordered by spend, highest first, and spends grow between reads:
   * before each listing is answered, some of the account's campaigns spend more (from `seed`).
   */
  moving_order: z.boolean().optional(),
  /**
   * With this probability an API request (campaign or push API, not the token endpoint) is answered
   * 502 or 503 and nothing is applied; its Retry-After is delay-seconds, an HTTP-date or absent.
   */
  transient_5xx: z.number().min(0).max(1).optional(),
  /**
   * A listing answer of more than this many rows is cut mid-body: the connection is dropped after
   * about half of it was sent.
   */
  cut_body: z.number().int().positive().optional(),
  /**
   * A listing answer of more than LARGE_LISTING_ROWS rows has its headers held back this many ms of
   * real time (a slow start), whatever the sandbox clock.
   */
  slow_start: z.number().int().positive().optional(),
  /**
   * Seeds every per-request choice the variants make (src/sandbox/choices.ts): the same seed
   * replays the same answers. Default 1.
   */
  seed: z.number().int().optional(),
});
export type Variants = z.infer<typeof variantsSchema>;
export type VariantName = keyof Variants;

export const VARIANT_NAMES = Object.keys(variantsSchema.shape) as VariantName[];

/**
 * The other legal choice at every point at once (except a page cap low enough to make every test
 * page): what the client's integration tests run against besides the defaults.
 */
export const MIXED_VARIANTS: Variants = {
  page_size_cap: 3,
  decimal_point: true,
  date_offset: '+05:30',
  retry_after_date: true,
  clock_offset_ms: 7 * 60_000,
  problem_json: true,
  update_requires_performer: true,
  task_list_wrapper: 'tasks',
  create_201: true,
  fill_on_create: true,
  late_apply_ms: 1_500,
  header_spelling: 'quoted',
  windows: 'token_bucket',
  // The most generous tier: every push answer carries limits to learn, and tests are not slowed.
  push_tier: 1,
  token_error_echo: true,
};

/**
 * `name` or `name=value` from the command line, into `into`. Numbers and booleans are read as
 * such; the result is checked by the schema, so a typo fails with the variant's name.
 */
export function parseVariantArg(arg: string, into: Record<string, unknown>): void {
  const eq = arg.indexOf('=');
  const name = eq < 0 ? arg : arg.slice(0, eq);
  const raw = eq < 0 ? 'true' : arg.slice(eq + 1);
  if (!(VARIANT_NAMES as string[]).includes(name)) {
    throw new Error(`unknown variant ${name}; known: ${VARIANT_NAMES.join(', ')}`);
  }
  if (name in into) throw new Error(`variant ${name} given twice`);
  let value: unknown = raw;
  if (raw === 'true') value = true;
  else if (raw === 'false') value = false;
  else if (/^-?\d+$/.test(raw)) value = Number(raw);
  into[name] = value;
}
