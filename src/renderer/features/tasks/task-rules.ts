// Which tasks a person may change, and why not otherwise: the service only updates or deletes a
// future scheduled task (spec 4.6), so the window says so before anything is queued.
import type { Task, TaskUpdate } from '../../../shared/domain/push';
import { isServiceValue } from '../../../shared/domain/service-values';
import { msToWall, wallToMs } from '../../forms/schedule';

export type Editability = { editable: true } | { editable: false; reason: string };

export function taskEditability(t: Task, now: number): Editability {
  const is = (value: string) => isServiceValue(t.taskStatus, value);
  if (is('completed') || is('active')) return { editable: false, reason: "Already sent: it can't be edited or cancelled" };
  // (isServiceValue: any case, and the other spelling, "canceled".)
  if (is('cancelled')) return { editable: false, reason: "Cancelled: it can't be edited or cancelled" };
  if (is('failed')) return { editable: false, reason: "Failed on the service: it can't be edited or cancelled" };
  if (!isServiceValue(t.taskType, 'scheduled'))
    return { editable: false, reason: 'Sent at once: only scheduled pushes can be edited or cancelled' };
  if (!is('pending'))
    return { editable: false, reason: `Status "${t.taskStatus}": only pending scheduled pushes can be edited or cancelled` };
  if (typeof t.executionTime !== 'number' || t.executionTime <= now)
    return { editable: false, reason: "Its time has come: it is being sent and can't be changed" };
  return { editable: true };
}

/** The editor's fields: the composer's, less what an update cannot change (URL, target). */
export interface TaskEditForm {
  title: string;
  /** The picker's text, read as the composer reads it: a wall time in UTC or in each subscriber's zone. */
  executionLocal: string;
  userTimeZone: 0 | 1;
  thumbnailUrl: string;
  icon: string;
  itemDescription: string;
  performer: string;
}

export function taskToEditForm(t: Task): TaskEditForm {
  return {
    title: t.title ?? '',
    executionLocal: typeof t.executionTime === 'number' ? msToWall(t.executionTime) : '',
    userTimeZone: t.userTimeZone === 1 ? 1 : 0,
    thumbnailUrl: t.thumbnailUrl ?? '',
    icon: t.iconUrl ?? '',
    itemDescription: t.itemDescription ?? '',
    performer: t.performer ?? '',
  };
}

/** What the person changed; main merges it into the whole record it sends (src/main/app/handlers/tasks.ts). */
export function taskPatch(before: TaskEditForm, after: TaskEditForm): TaskUpdate {
  const patch: TaskUpdate = {};
  if (after.title !== before.title) patch.title = after.title;
  if (after.thumbnailUrl !== before.thumbnailUrl) patch.thumbnailUrl = after.thumbnailUrl;
  if (after.icon !== before.icon) patch.icon = after.icon;
  if (after.itemDescription !== before.itemDescription) patch.itemDescription = after.itemDescription;
  if (after.performer !== before.performer) patch.performer = after.performer;
  if (after.userTimeZone !== before.userTimeZone) patch.userTimeZone = after.userTimeZone;
  if (after.executionLocal !== before.executionLocal) {
    const t = wallToMs(after.executionLocal);
    if (t !== undefined) patch.executionTime = t;
  }
  return patch;
}

/** The badge class of a task status in any case or spelling the service uses (unknown: status-other). */
export function statusClass(status: string): string {
  return Object.entries(STATUS_CLASS).find(([known]) => isServiceValue(status, known))?.[1] ?? 'status-other';
}

export const STATUS_CLASS: Record<string, string> = {
  pending: 'status-pending',
  active: 'status-pending',
  completed: 'status-ok',
  cancelled: 'status-muted',
  failed: 'status-bad',
};

/** What the tab says once a task's edit or cancel is queued (the list shows the change once it is sent). */
export const taskChangeQueued = (summary: string): string => `Queued: ${summary}. The list updates once it is sent.`;
