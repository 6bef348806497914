// How a failed refresh is said in the activity log and its progress: the error's own words
// (service and app errors carry words a person can act on), else a plain sentence.
import { isServiceError } from '../service';

export function describeFailure(e: unknown): string {
  if (isServiceError(e) || e instanceof Error) return e.message;
  return 'The refresh failed.';
}
