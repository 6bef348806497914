// The documented tiers (spec 8.1, src/shared/domain/rate-tiers.ts) are only the first guess for a
// budget before a response has told us its real policy (DECISIONS client 6); nothing here is
// trusted once headers arrive.
import { documentedWindows } from '../../shared/domain/rate-tiers';
import type { WindowPolicy } from './policy';

export type Budget = 'read' | 'write';

/** Endpoint groups the scheduler knows. Push has no documented limits and is its own group. */
export type EndpointGroup = 'campaigns' | 'campaigns.list' | 'push' | (string & {});

/**
 * The starting guess for a budget: the documented tier, or no windows for a group the interface
 * shows no limits for (push). Either is a guess, probed one request at a time until the first
 * answer: its headers teach the real windows, and a success without them means no limit. A
 * service that does limit push then refuses no burst of ours.
 */
export function documentedGuess(group: EndpointGroup, budget: Budget): WindowPolicy[] {
  return documentedWindows(group, budget) ?? [];
}

/** The push API names no account: a client's push requests draw from its own budgets, under this key. */
export const pushBudgetAccount = (clientId: string): string => `push:${clientId}`;
export const isPushBudgetAccount = (account: string): boolean => account.startsWith('push:');
