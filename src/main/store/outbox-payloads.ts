// What each kind of outbox item carries. Parsed when written and again when read back: a row that
// no longer fits its kind's schema is quarantined, never sent as it is.
import { z } from 'zod';
import { campaignCreateSchema } from '../../shared/domain/campaign';
import { pushEventSchema, taskUpdateSchema } from '../../shared/domain/push';
import type { OutboxKind } from '../../shared/domain/outbox';

export const outboxPayloadSchemas = {
  /** clientRef: chosen by the desk, lets the sync engine recognise its own campaign after an unknown outcome. */
  create_campaign: z.object({ body: campaignCreateSchema, clientRef: z.string().min(1).max(100) }),
  send_push: z.object({ mode: z.enum(['immediate', 'scheduled']), events: z.array(pushEventSchema).min(1) }),
  update_task: z.object({ appId: z.string().min(1), taskId: z.string().min(1), update: taskUpdateSchema }),
  cancel_task: z.object({ appId: z.string().min(1), taskId: z.string().min(1) }),
  set_sw_path: z.object({
    containerId: z.string().min(1),
    serviceWorkerPath: z.string().min(1),
    performer: z.string().min(1),
  }),
} as const satisfies Record<OutboxKind, z.ZodType>;

export type OutboxPayload<K extends OutboxKind> = z.infer<(typeof outboxPayloadSchemas)[K]>;

/** A kind with its payload, as a discriminated union. */
export type OutboxWork = { [K in OutboxKind]: { kind: K; payload: OutboxPayload<K> } }[OutboxKind];

/** Kinds that act on one advertiser account and so must name it. */
export const ACCOUNT_BOUND_KINDS: readonly OutboxKind[] = ['create_campaign'];
