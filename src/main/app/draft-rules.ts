// A draft checked with the shared rules: the problems shown next to its fields, and, when there
// are none, the outbox work it becomes.
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { campaignCreateProblems, campaignCreateSchema, type FieldProblem } from '../../shared/domain/campaign';
import { pushEventProblems, pushEventSchema } from '../../shared/domain/push';
import { pushDraftPayloadSchema } from '../../shared/ipc/contract';
import type { OutboxWork } from '../store';

const zodProblems = (issues: readonly z.core.$ZodIssue[]): FieldProblem[] =>
  issues.map((i) => ({ field: i.path.map(String).join('.') || 'draft', message: i.message }));

export type Checked = { problems: FieldProblem[]; work?: undefined } | { problems: []; work: OutboxWork };

export function checkCampaignDraft(payload: unknown, accountType: 'ADVERTISER' | 'NETWORK' | undefined): Checked {
  const parsed = campaignCreateSchema.safeParse(payload);
  if (!parsed.success) return { problems: zodProblems(parsed.error.issues) };
  const problems = campaignCreateProblems(parsed.data, accountType ? { accountType } : {});
  if (problems.length > 0) return { problems };
  return { problems: [], work: { kind: 'create_campaign', payload: { body: parsed.data, clientRef: randomUUID() } } };
}

export function checkPushDraft(payload: unknown, now: number): Checked {
  const parsed = pushDraftPayloadSchema.safeParse(payload);
  if (!parsed.success) return { problems: zodProblems(parsed.error.issues) };
  const event = pushEventSchema.parse(parsed.data.event);
  const problems = pushEventProblems(event, parsed.data.mode, now);
  if (problems.length > 0) return { problems };
  return { problems: [], work: { kind: 'send_push', payload: { mode: parsed.data.mode, events: [event] } } };
}
