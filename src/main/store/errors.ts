// Store failures travel as data with a code (so the IPC layer can map them) and a message that
// tells a person what to do next. Messages never include row payloads: those may hold user data.

export type StoreErrorCode =
  | 'MIGRATION_FAILED'
  | 'INVALID_INPUT'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'BAD_TRANSITION'
  | 'REFRESH_SUPERSEDED'
  | 'HAS_PENDING_CHANGES'
  | 'CACHE_UNAVAILABLE'
  | 'QUERY_SUPERSEDED';

export class StoreError extends Error {
  override readonly name = 'StoreError';
  constructor(
    readonly code: StoreErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Field paths and messages of a zod failure, never the offending values. */
export function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 5)
    .map((i) => `${i.path.length > 0 ? i.path.map(String).join('.') : '(root)'}: ${i.message}`)
    .join('; ');
}
