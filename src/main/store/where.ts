// The filters of a list query as a WHERE clause. Each condition is fixed text written in the code,
// with `?` for its values, so a value never becomes SQL; a filter that was not given adds nothing.
export interface Condition {
  sql: string;
  params: readonly unknown[];
}

/** The condition when its filter was given, else nothing. */
export function when(given: boolean, sql: string, ...params: unknown[]): Condition | null {
  return given ? { sql, params } : null;
}

/** `?, ?, ?` for an IN list of n values. */
export function placeholders(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}

/** `WHERE a AND b` (or nothing) and its values in order. */
export function whereClause(conditions: readonly (Condition | null)[]): { sql: string; params: unknown[] } {
  const kept = conditions.filter((c): c is Condition => c !== null);
  return {
    sql: kept.length > 0 ? `WHERE ${kept.map((c) => c.sql).join(' AND ')}` : '',
    params: kept.flatMap((c) => c.params),
  };
}
