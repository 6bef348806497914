// Whether a task update or cancel the service refused was already done, by our own earlier
// attempt whose answer was lost: the task on the service decides (send-item.ts asks after a
// refusal of a resend).
import type { Task } from '../../shared/domain/push';
import { isServiceValue } from '../../shared/domain/service-values';
import type { ServiceClient } from '../service';
import type { OutboxItem, Store } from '../store';
import { taskHasUpdate } from './signature';

/**
 * Whether the service already shows what a task update or cancel asked for: the task cancelled,
 * or holding the update; or, for a cancel after an earlier attempt of ours, gone from the
 * service (that attempt may have removed it, and a task that is gone will not run). Undefined
 * when it does not, or when the service could not be asked.
 */
export async function taskAlreadyDone(
  store: Store,
  item: Extract<OutboxItem, { kind: 'cancel_task' | 'update_task' }>,
  client: ServiceClient,
): Promise<{ result: Record<string, unknown>; what: string } | undefined> {
  // attempts counts this one: more than one means an earlier attempt may have reached the service.
  const earlierAttempt = item.attempts > 1;
  let tasks: Task[];
  try {
    tasks = await client.listTasks(item.payload.appId, undefined, { priority: 'outbox' });
  } catch {
    return undefined;
  }
  const t = tasks.find((x) => x.taskId === item.payload.taskId);
  if (t) store.tasks.upsert(item.profileId, t);
  if (item.kind === 'cancel_task') {
    if (isServiceValue(t?.taskStatus, 'cancelled')) return { result: { alreadyCancelled: true }, what: 'was already cancelled' };
    if (!t && earlierAttempt)
      return {
        result: { goneFromService: true },
        what: 'is done: the task is no longer on the service (our earlier attempt removed it)',
      };
    return undefined;
  }
  return t && taskHasUpdate(t, item.payload.update) === true
    ? { result: { alreadyApplied: true }, what: 'was already applied' }
    : undefined;
}
