// A draft checked with the shared rules: the problems shown next to its fields, and, when there
// are none, the outbox work it becomes. What the account is known to refuse (DECISIONS client 13)
// comes back as warnings, never problems: the person may still queue it.
import type { AccountType } from '../../shared/domain/account';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { capabilityWarnings, type CapabilityRecord, type CapabilityWarning } from '../../shared/domain/capabilities';
import { campaignCreateProblems, campaignCreateSchema, type FieldProblem } from '../../shared/domain/campaign';
import { pushEventProblems, pushEventSchema } from '../../shared/domain/push';
import { pushDraftPayloadSchema } from '../../shared/ipc/contract';
import type { AccountRef, OutboxWork, Store } from '../store';

const zodProblems = (issues: readonly z.core.$ZodIssue[]): FieldProblem[] =>
  issues.map((i) => ({ field: i.path.map(String).join('.') || 'draft', message: i.message }));

export type Checked = ({ problems: FieldProblem[]; work?: undefined } | { problems: []; work: OutboxWork }) & {
  /** What the account is known to refuse among what the draft uses (campaign drafts only). */
  warnings?: CapabilityWarning[];
};

/** What is known about the target account, for the warnings. */
export interface AccountKnowledge {
  accountName: string;
  capabilities: readonly CapabilityRecord[];
  now: number;
}

/** The knowledge checkCampaignDraft takes, read from the store; undefined for an account not added. */
export function accountKnowledge(store: Store, ref: AccountRef, now: number): AccountKnowledge | undefined {
  const account = store.accounts.get(ref);
  if (!account) return undefined;
  return { accountName: account.name ?? account.accountId, capabilities: store.capabilities.list(ref), now };
}

export function checkCampaignDraft(payload: unknown, accountType: AccountType | undefined, known?: AccountKnowledge): Checked {
  // Warned about even while the draft is incomplete: the type is chosen before the rest is filled in.
  const partial = campaignCreateSchema.partial().safeParse(payload);
  const warnings = known && partial.success ? capabilityWarnings(partial.data, known.capabilities, known.accountName, known.now) : [];
  const parsed = campaignCreateSchema.safeParse(payload);
  if (!parsed.success) return { problems: zodProblems(parsed.error.issues), warnings };
  const problems = campaignCreateProblems(parsed.data, accountType ? { accountType } : {});
  if (problems.length > 0) return { problems, warnings };
  return { problems: [], warnings, work: { kind: 'create_campaign', payload: { body: parsed.data, clientRef: randomUUID() } } };
}

export function checkPushDraft(payload: unknown, now: number): Checked {
  const parsed = pushDraftPayloadSchema.safeParse(payload);
  if (!parsed.success) return { problems: zodProblems(parsed.error.issues) };
  const event = pushEventSchema.parse(parsed.data.event);
  const problems = pushEventProblems(event, parsed.data.mode, now);
  if (problems.length > 0) return { problems };
  return { problems: [], work: { kind: 'send_push', payload: { mode: parsed.data.mode, events: [event] } } };
}
