// JSON text for the decimal_point variant: some services write a decimal that happens to be whole
// as `3000.0`, which JSON allows and JSON.stringify never produces. This writer walks the value
// itself and writes the named decimal fields that way on purpose, so the output is valid JSON by
// construction (no rewriting of text after the fact, so a string that happens to contain
// `"spent":3` is never touched).

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
      throw new TypeError('a bigint cannot be written as JSON');
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
 * strings, numbers, booleans, null), except that a finite whole number held under one of
 * `decimalKeys` is written with a decimal point: `{"spent":3000.0}`.
 */
export function stringifyWithDecimalPoint(value: unknown, decimalKeys: ReadonlySet<string>): string {
  return write(value, decimalKeys, false) ?? 'null';
}
