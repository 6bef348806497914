// Shared by the outbox's reconciliation tests: what the sandbox's request log says about the
// requests that matter to a lost change (list reads and creates of an account). The world and the sandbox's control calls are test/helpers'.
import type { SandboxRef } from '../../helpers/control';
import { requestLog, type LoggedRequest } from '../../helpers/sandbox';

/** The newest request's number, to count what follows it. */
export async function lastSeq(sb: SandboxRef): Promise<number> {
  return (await requestLog(sb)).reduce((m, r) => Math.max(m, r.seq), 0);
}

const listPath = (account: string) => new RegExp(`^/core/api/1\\.0/${account}/campaigns/?$`);

/** Campaign list reads of `account` after request `since`. */
export async function listReads(sb: SandboxRef, account: string, since: number): Promise<LoggedRequest[]> {
  return (await requestLog(sb, since)).filter((r) => r.method === 'GET' && listPath(account).test(r.path));
}

/**
 * Create requests of `account` after request `since` (a write the late_apply_ms variant applied
 * later has an entry of its own, 'late_applied': not a request, so not counted).
 */
export async function creates(sb: SandboxRef, account: string, since = 0): Promise<LoggedRequest[]> {
  return (await requestLog(sb, since)).filter((r) => r.method === 'POST' && listPath(account).test(r.path) && r.outcome !== 'late_applied');
}
