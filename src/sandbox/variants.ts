// Service variants: wherever the interface leaves room, the real service may choose differently
// from our defaults (DECISIONS sandbox 13). Each key makes the sandbox play one such legal choice;
// all are off by default, so the default sandbox behaves exactly as docs/sandbox.md describes.
// They come from the fixtures (`variants`), the CLI (`--variant name[=value]`) or the control API
// (`PUT /_sandbox/variants`), and the client's tests run against a mix of them.
import { z } from 'zod';
import { COMPRESS_CHOICES } from './codings';
import { JSON_TEXTS } from './json-text';

const MAX_CLOCK_OFFSET_MS = 1e12;

/** The spellings of a date-time the date_form variant plays (docs/sandbox.md). */
export const DATE_FORMS = ['seconds', 'micros', 'plus_zero', 'space', 'minutes', 'no_zone', 'epoch_ms'] as const;
export type DateForm = (typeof DATE_FORMS)[number];

/** The shapes of the listing envelope the list_envelope variant plays (docs/sandbox.md). */
export const LIST_ENVELOPES = ['metadata_first', 'null_empty', 'omit_empty', 'text_counts', 'no_count'] as const;

/** How the task_times variant writes a task's epoch times (docs/sandbox.md). */
export const TASK_TIMES = ['formatted_only', 'iso', 'seconds'] as const;

/** The obsolete HTTP-date forms the date_header variant writes (RFC 9110 5.6.7). */
export const HTTP_DATE_FORMS = ['rfc850', 'asctime'] as const;
export type HttpDateForm = (typeof HTTP_DATE_FORMS)[number];

export const variantsSchema = z.strictObject({
  /** Listings return at most this many rows per answer, whatever page_size asked (metadata stays true). */
  page_size_cap: z.number().int().positive().optional(),
  /**
   * A listing that asks for a page_size above this is refused with 400 (`page_size must be between
   * 1 and N`): 4.2 types page_size as a number and names no largest value, and a service may refuse
   * one it will not serve instead of serving less (page_size_cap).
   */
  page_size_max: z.number().int().positive().optional(),
  /**
   * A page after the last one (page > 1, no row on it) is refused, 404 (`not_found`) or 400
   * (`bad_request`), with `Invalid page.`, instead of answered with empty results: 4.2 does not
   * say what a page beyond the listing answers, and common paging frameworks refuse it.
   */
  page_past_end: z.enum(['not_found', 'bad_request']).optional(),
  /**
   * A listing naming more than this many campaign_ids is refused with 400 (`campaign_ids accepts at
   * most N values`): 4.2 makes campaign_ids repeatable and names no largest count.
   */
  campaign_ids_max: z.number().int().positive().optional(),
  /** Whole decimals in answers are written with a point: `3000.0` instead of `3000`. */
  decimal_point: z.boolean().optional(),
  /** ISO date-times in answers use this numeric offset (`+05:30`) instead of `Z`. */
  date_offset: z
    .string()
    .regex(/^[+-](0\d|1[0-4]):[0-5]\d$/, 'must be an offset such as +05:30 or -08:00')
    .optional(),
  /**
   * ISO 8601 date-times in answers in another legal spelling (the same instant): no fraction
   * (`seconds`), microseconds (`micros`), `+00:00` for `Z` (`plus_zero`), a space for the `T`
   * (`space`), no seconds (`minutes`), the wall time without its offset (`no_zone`), or, beyond the
   * text, a campaign's date-times as epoch milliseconds (`epoch_ms`). Combines with date_offset.
   */
  date_form: z.enum(DATE_FORMS).optional(),
  /**
   * The campaign listing's envelope in another legal shape: metadata before the results
   * (`metadata_first`), an empty results as null (`null_empty`) or left out (`omit_empty`), the
   * metadata's numbers as text (`text_counts`), or, beyond the text, no `count` (`no_count`).
   */
  list_envelope: z.enum(LIST_ENVELOPES).optional(),
  /**
   * A create whose body holds a null member is refused with 400 (`<field> must be omitted, not
   * null`): spec 4.1 rule 4 says to omit spending_limit, not to send it empty.
   */
  refuse_null: z.boolean().optional(),
  /**
   * Beyond the text (spec 4.1 shows "the created campaign object"): the create's answer holds the
   * campaign under a key (`wrapped`: `{"campaign": {...}}`), or only what the service assigned and
   * filled in, none of the fields the request sent (`sparse`).
   */
  create_answer: z.enum(['wrapped', 'sparse']).optional(),
  /**
   * Task statuses in answers in American spelling: `canceled` for the interface's `cancelled`
   * (spec 2.6 lists the states, not that each is written one way). Requests are judged as before.
   */
  task_status_spelling: z.enum(['us']).optional(),
  /**
   * A task's epoch times (`executionTime`, `taskUpdateTime`) written otherwise: left out, the
   * `*Formatted` texts carrying the instant (`formatted_only`); or, beyond the text (2.6 types them
   * as numbers of milliseconds), as ISO 8601 text (`iso`) or as epoch seconds (`seconds`).
   */
  task_times: z.enum(TASK_TIMES).optional(),
  /**
   * The authorized applications (spec 2.7 says "map of application ID to publisher name") written
   * otherwise: a publisher not known given as null (`null_publisher`: every second app), or, beyond
   * the text, the map under a key (`wrapped`: `{"apps": {...}}`) or a list of records
   * (`list`: `[{"app_id": 1001, "publisher": "..."}]`, ids as numbers).
   */
  auth_apps_shape: z.enum(['null_publisher', 'wrapped', 'list']).optional(),
  /**
   * Beyond the text (spec 5.5 says 401): a bearer token the service does not know (expired,
   * revoked, forgotten) is answered 403 in the API's error body, without a challenge, as front
   * servers that check tokens before the API often do. A missing Authorization header stays 401.
   */
  token_refused_403: z.boolean().optional(),
  /** `Retry-After` is an HTTP-date (RFC 9110) instead of delay-seconds. */
  retry_after_date: z.boolean().optional(),
  /**
   * The service's clock runs this far ahead (positive) or behind (negative) of the sandbox clock;
   * at most about 31 years either way, so that every time stays a time.
   */
  clock_offset_ms: z.number().int().min(-MAX_CLOCK_OFFSET_MS).max(MAX_CLOCK_OFFSET_MS).optional(),
  /** Errors are `application/problem+json` (RFC 9457: type, title, status, detail), without `message`. */
  problem_json: z.boolean().optional(),
  /**
   * "message_list": the campaign API's errors other than 429 are `{"statusCode": N, "message":
   * ["..."], "error": "<status phrase>"}`, as a common server framework writes them.
   */
  error_shape: z.enum(['message_list']).optional(),
  /** A task update without `performer` is refused with 400. */
  update_requires_performer: z.boolean().optional(),
  /**
   * The task list is an object holding the array under this key instead of a bare array, with its
   * `count` beside it; a dotted key nests it one level (`payload.items`: `{"payload": {"items": [...], "count": n}}`).
   */
  task_list_wrapper: z
    .string()
    .regex(/^[A-Za-z_]\w{0,39}(\.[A-Za-z_]\w{0,39})?$/, 'must be a key, or two keys joined by a dot')
    .optional(),
  /** The task list of an application without tasks (none, or none of the asked type) is `{}`. */
  empty_as_object: z.boolean().optional(),
  /** Fields whose value is null or empty text are left out of task and campaign answers. */
  omit_empty: z.boolean().optional(),
  /**
   * Answers of the campaign and push APIs come in this content coding (two in sequence for
   * `deflate,gzip`) when the request's Accept-Encoding accepts it (RFC 9110 8.4, 12.5.3).
   */
  compress: z.enum(COMPRESS_CHOICES).optional(),
  /**
   * Every request to the campaign and push APIs is first answered with this redirect (307 or 308)
   * to the same address under `/alias`, on the same origin, where it is served (RFC 9110 15.4).
   */
  redirect: z.union([z.literal(307), z.literal(308)]).optional(),
  /** Every answer of the campaign and push APIs is preceded by a 103 Early Hints (RFC 8297, RFC 9110 15.2). */
  early_hints: z.boolean().optional(),
  /** A create answers 201 Created with a Location header instead of 200 (spec 4.1: "Success status code: not shown"). */
  create_201: z.boolean().optional(),
  /**
   * A write that succeeded (create, push send, task update and cancel, sw-path) is answered 200
   * with an empty body (`empty`), 204 No Content (`no_content`) or 202 Accepted with an empty body
   * (`accepted`), the write applied at once all the same. Spec 4.1 and 4.6 do not show these
   * answers' status codes; RFC 9110 15.3 lets any of them mean success.
   */
  write_answer: z.enum(['empty', 'no_content', 'accepted']).optional(),
  /** A create fills in fields it was not sent and normalises the ones it was (see docs/sandbox.md). */
  fill_on_create: z.boolean().optional(),
  /** A write whose connection a `close_after` fault dropped is applied this many ms later, not at once. */
  late_apply_ms: z.number().int().nonnegative().optional(),
  /** Rate-limit headers in another legal spelling (see docs/sandbox.md). */
  header_spelling: z.enum(['quoted', 'reordered', 'multiple_fields']).optional(),
  /**
   * With this probability an admitted answer of a limited endpoint carries no rate-limit headers
   * (1: only 429s carry them); drawn from `seed`. The request is counted as always.
   */
  rate_headers_dropped: z.number().min(0).max(1).optional(),
  /** How the windows refill: sliding logs (default) or token buckets (q tokens, refilled at q/w per second). */
  windows: z.enum(['sliding_log', 'token_bucket']).optional(),
  /**
   * The push API is rate-limited per client at this tier (spec 8.1's table, reads and writes
   * counted apart), with the campaign API's headers and 429s. Unlimited by default: the interface
   * does not show push limits.
   */
  push_tier: z.number().int().min(1).max(6).optional(),
  /**
   * Every id the service hands out from now on (campaign ids, taskId; tagId is the app's own id)
   * is beyond 2^53 (from 2^60 + 1 for campaigns, 2^61 + 1 for tasks), written as exact JSON
   * numbers where the interface shows a number (spec 2.6 types taskId and tagId as numbers with
   * no range; 2.1 shows the created campaign's id as a number).
   */
  id_range: z.enum(['big']).optional(),
  /**
   * Text a create or a push sends is stored Unicode-normalised (NFC, or NFKC which also folds
   * compatibility forms such as full-width letters and ligatures), runs of whitespace collapsed to
   * one space and trimmed: campaign name and branding text, a push's title, performer and description.
   */
  normalise_text: z.enum(['nfc', 'nfkc']).optional(),
  /**
   * A campaign's tracking code and a push's url are stored re-serialised: query parameters in
   * another order (a per-request choice), percent-encoding rewritten (space as %20, lower-case hex,
   * unreserved characters decoded).
   */
  reencode_urls: z.boolean().optional(),
  /**
   * Where new campaign and task ids go: above every older one (default), below every older one
   * ("descending"), or anywhere not taken ("random", a per-request choice).
   */
  id_order: z.enum(['ascending', 'descending', 'random']).optional(),
  /** A created campaign or push task is listed only this many ms after its creation (sandbox clock). */
  listing_lag_ms: z.number().int().nonnegative().optional(),
  /** List requests with a sort are refused (400): "id" only a sort by id, "all" every sort. */
  refuse_sort: z.enum(['id', 'all']).optional(),
  /**
   * Token answers spelled another legal way (RFC 6749 5.1): "spelled" (token_type "Bearer",
   * expires_in as a numeric string, scope echoed, an unknown member), "nulls" (token_type
   * "BEARER", members without a value written as null: refresh_token, scope).
   */
  token_response: z.enum(['spelled', 'nulls']).optional(),
  /**
   * The token endpoint takes client credentials through HTTP Basic only (RFC 6749 2.3.1); a request
   * without them is refused as invalid_client: "basic" with 401 and a Basic challenge, "basic_400"
   * with 400 and none (RFC 6749 5.2 allows either when no Authorization header was sent);
   * "basic_invalid_request" as 400 invalid_request (the body's client_secret an unsupported parameter).
   */
  token_client_auth: z.enum(['basic', 'basic_400', 'basic_invalid_request']).optional(),
  /**
   * "dropped": the sign-in page never carries the client's `state` back; its redirects are
   * `<redirect_uri>?code=...` (or `?error=...`) exactly as spec 4.3 shows them.
   */
  authorize_state: z.enum(['dropped']).optional(),
  /**
   * Beyond the text, named as such (spec 4.4/4.5 show how a token is issued, not whether earlier
   * ones stay valid): "latest_only" keeps one live access token per client id, so issuing a token
   * (either grant) revokes every earlier one of that client, as some authorization servers do.
   */
  token_per_client: z.enum(['latest_only']).optional(),
  /** The token endpoint echoes the request's form body in its error descriptions. */
  token_error_echo: z.boolean().optional(),
  /**
   * Enum values in answers are written in another case than the interface shows them: task
   * `taskType` and `taskStatus` (shown in lower case) and a campaign's status, models, strategy,
   * objective and item type (shown in capitals). Requests are judged as before.
   */
  enum_case: z.enum(['upper', 'lower', 'title']).optional(),
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
   * A push send's answer (spec 4.6: "a JSON string", whose words carry no meaning, DECISIONS client
   * 4) written otherwise: a string naming the task ids it made (`ids_text`), or, beyond the text,
   * the words under a key (`wrapped`: `{"message": "..."}`), the number of notifications as a bare
   * JSON number (`count`), or the created task records as the task list writes them (`tasks`).
   */
  push_answer: z.enum(['ids_text', 'wrapped', 'count', 'tasks']).optional(),
  /**
   * Seeds every per-request choice the variants make (src/sandbox/choices.ts): the same seed
   * replays the same answers. Default 1.
   */
  seed: z.number().int().optional(),
  /**
   * Plays a service picked from `seed` (src/sandbox/chaos.ts): at start, reset and PUT
   * /_sandbox/variants, every other variant not given beside it is set to a legal choice drawn from
   * the seed. The variants shown by GET /_sandbox/variants are the ones picked.
   */
  chaos: z.boolean().optional(),
  /**
   * Every HTTP-date the service writes (the Date header, a Retry-After date) in one of the two
   * obsolete forms RFC 9110 5.6.7 obliges every recipient to accept: `rfc850`
   * (`Sunday, 06-Nov-94 08:49:37 GMT`) or `asctime` (`Sun Nov  6 08:49:37 1994`, UTC without saying so).
   */
  date_header: z.enum(HTTP_DATE_FORMS).optional(),
  /**
   * With this probability a request of the campaign or push API or of the token endpoint is
   * answered 408 Request Timeout with `Connection: close`, nothing applied (RFC 9110 15.5.9: the
   * server did not receive the whole request in time; the client may repeat it). Drawn from `seed`.
   */
  request_timeout: z.number().min(0).max(1).optional(),
  /**
   * With this probability a token request is answered 503, nothing issued, its Retry-After
   * delay-seconds (1-3) or absent (RFC 9110 15.6.4: any server may be unavailable for a while).
   * Drawn from `seed`.
   */
  token_unavailable: z.number().min(0).max(1).optional(),
  /**
   * Every JSON answer (campaign, push and token endpoints, listings streamed too) in another legal
   * text of the same value (RFC 8259): indented with CRLF and tabs (`pretty`), or with every
   * character beyond ASCII escaped as \uXXXX and every `/` as `\/` (`ascii`).
   */
  json_text: z.enum(JSON_TEXTS).optional(),
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
  task_list_wrapper: 'payload.items',
  empty_as_object: true,
  omit_empty: true,
  early_hints: true,
  // compress and redirect are left out: the tests' own proxies (test/main/app/env.ts, sync/support.ts)
  // rewrite bodies as plain JSON, and some tests call the API with plain undici requests.
  create_201: true,
  fill_on_create: true,
  late_apply_ms: 1_500,
  header_spelling: 'quoted',
  windows: 'token_bucket',
  // The most generous tier: every push answer carries limits to learn, and tests are not slowed.
  push_tier: 1,
  token_error_echo: true,
  // Token answers with token_type "BEARER" and value-less members as null (refresh_token, scope).
  token_response: 'nulls',
  // Ids beyond 2^53 from the first create and send on: the client's suites keep every id exact.
  id_range: 'big',
  // Text and query strings stored in another form than sent: every look-up must match them anyway.
  normalise_text: 'nfkc',
  reencode_urls: true,
  // Other spellings of dates (to the microsecond, at the offset above), of the listing's envelope
  // (metadata first) and of a cancelled task ("canceled"); task times only in their texts.
  date_form: 'micros',
  list_envelope: 'metadata_first',
  task_status_spelling: 'us',
  task_times: 'formatted_only',
  // A create answered with what the service assigned only, and refused when it holds a null.
  create_answer: 'sparse',
  refuse_null: true,
  // The sign-in page that never carries the client's state back: browser sign-in works without it.
  authorize_state: 'dropped',
  // One live token per client id: every connection and test helper of a client shares its token
  // (test helpers mint theirs through the app's pool, or ask with a client id of their own).
  token_per_client: 'latest_only',
  // Writes answered 202 without a body: a create's campaign is found by look-up, not read from the answer.
  write_answer: 'accepted',
  // Every JSON answer ASCII-only, with \uXXXX and \/ escapes: names and URLs are read to the same text.
  json_text: 'ascii',
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
