// The shared rules, checked again right before an item is sent: time has passed since it was
// queued (a scheduled push may now lie in the past, a task may have run). An item that fails is
// blocked with the reason and what the person can do; it is never sent as it is.
import { campaignCreateProblems, type FieldProblem } from '../../shared/domain/campaign';
import { pushEventProblems, swPathProblems, taskUpdateProblems, type Task } from '../../shared/domain/push';
import type { OutboxItem } from '../store';
import { isServiceValue } from '../../shared/domain/service-values';

export interface Blocked {
  code: BlockCode;
  message: string;
}

export const BLOCK_CODES = ['RULES', 'TIME_PASSED', 'TASK_NOT_FUTURE'] as const;
export type BlockCode = (typeof BLOCK_CODES)[number];

/** What the person can do about a blocked item, by its code (shown as the item's `fix`). */
export const FIX_OF_BLOCK: Readonly<Record<BlockCode, string>> = {
  RULES: 'Open the draft, correct what is listed and submit it again',
  TIME_PASSED: 'Pick a new time and submit again',
  TASK_NOT_FUTURE: 'Refresh the tasks to see what happened; a task that has run or was cancelled cannot be changed',
};

export interface RecheckContext {
  now: number;
  accountType?: 'ADVERTISER' | 'NETWORK';
  /** The cached task an update or cancel is for, when known. */
  task?: Task;
}

const list = (ps: readonly FieldProblem[]) => ps.map((p) => p.message).join('; ');

/** A scheduled task can still be changed only while it is pending and in the future. */
/** Why a change to a task cannot be made: the one wording, for Queue's refusal and the outbox's. */
export const taskNotFutureWords = (taskId: string, status: string): string =>
  `task ${taskId} is no longer a future scheduled task (it is ${status})`;

export function taskIsFuture(task: Task, now: number): boolean {
  return (
    isServiceValue(task.taskType, 'scheduled') &&
    isServiceValue(task.taskStatus, 'pending') &&
    typeof task.executionTime === 'number' &&
    task.executionTime > now
  );
}

export function recheck(item: OutboxItem, ctx: RecheckContext): Blocked | null {
  switch (item.kind) {
    case 'create_campaign': {
      const ps = campaignCreateProblems(item.payload.body, ctx.accountType ? { accountType: ctx.accountType } : {});
      return ps.length > 0 ? { code: 'RULES', message: `Not sent: ${list(ps)}.` } : null;
    }
    case 'send_push': {
      const { mode, events } = item.payload;
      const ps = events.flatMap((ev) => pushEventProblems(ev, mode, ctx.now));
      if (ps.length === 0) return null;
      const timePassed = mode === 'scheduled' && ps.every((p) => p.field === 'executionTime');
      return timePassed
        ? { code: 'TIME_PASSED', message: 'Not sent: the scheduled time has passed while the push was waiting to be sent.' }
        : { code: 'RULES', message: `Not sent: ${list(ps)}.` };
    }
    case 'update_task': {
      if (ctx.task && !taskIsFuture(ctx.task, ctx.now)) {
        return { code: 'TASK_NOT_FUTURE', message: `Not sent: ${taskNotFutureWords(item.payload.taskId, ctx.task.taskStatus)}.` };
      }
      const ps = taskUpdateProblems(item.payload.update, ctx.now);
      if (ps.length === 0) return null;
      const timePassed = ps.every((p) => p.field === 'executionTime');
      return timePassed
        ? { code: 'TIME_PASSED', message: 'Not sent: the new time has passed while the change was waiting to be sent.' }
        : { code: 'RULES', message: `Not sent: ${list(ps)}.` };
    }
    case 'cancel_task':
      return ctx.task && !taskIsFuture(ctx.task, ctx.now)
        ? { code: 'TASK_NOT_FUTURE', message: `Not sent: ${taskNotFutureWords(item.payload.taskId, ctx.task.taskStatus)}.` }
        : null;
    case 'set_sw_path': {
      const ps = swPathProblems(item.payload);
      return ps.length > 0 ? { code: 'RULES', message: `Not sent: ${list(ps)}.` } : null;
    }
  }
}
