// JSON text the sandbox's answers need and JSON.stringify cannot write: ids held as bigints
// (records.ts) as bare numbers of any size (`"taskId":2305843009213693953`), and, for the
// decimal_point variant, a decimal that happens to be whole as `3000.0` (JSON allows it; some
// services write it). This writer walks the value itself and writes both on purpose, so the
// output is valid JSON by construction (no rewriting of text after the fact, so a string that
// happens to contain `"spent":3` is never touched).

/** Beyond this, JavaScript writes whole numbers in exponent form (`1e+21`), which takes no `.0`. */
const PLAIN_INTEGER_LIMIT = 1e21;

function decimalText(n: number): string {
  const plain = JSON.stringify(n);
  return Number.isInteger(n) && Math.abs(n) < PLAIN_INTEGER_LIMIT ? `${plain}.0` : plain;
}

function write(value: unknown, decimalKeys: ReadonlySet<string>, inArray: boolean): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
    case 'boolean':
    case 'number': // NaN and infinities become null, as JSON.stringify writes them
      return JSON.stringify(value);
    case 'undefined':
    case 'function':
    case 'symbol':
      // As JSON.stringify: dropped from objects, null inside arrays.
      return inArray ? 'null' : undefined;
    case 'bigint':
      return value.toString();
  }
  if (Array.isArray(value)) {
    return `[${value.map((item) => write(item, decimalKeys, true)).join(',')}]`;
  }
  const parts: string[] = [];
  for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
    const text = decimalKeys.has(key) && typeof member === 'number' ? decimalText(member) : write(member, decimalKeys, false);
    if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}

/**
 * Like JSON.stringify(value) for the plain data the sandbox answers with (objects, arrays,
 * strings, numbers, bigints, booleans, null), except that a bigint is written as its digits and a
 * finite whole number held under one of `decimalKeys` with a decimal point: `{"spent":3000.0}`.
 */
export function stringifyAnswer(value: unknown, decimalKeys: ReadonlySet<string> = NO_KEYS): string {
  return write(value, decimalKeys, false) ?? 'null';
}

const NO_KEYS: ReadonlySet<string> = new Set();

/**
 * JSON text of an answer: JSON.stringify's (several times faster than our writer, and what a
 * listing, whose ids are strings, takes) unless the value holds a bigint id, which JSON.stringify
 * refuses with a TypeError on meeting it; that answer (a create, a task list) is written by ours.
 */
export function toJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    return stringifyAnswer(value);
  }
}
