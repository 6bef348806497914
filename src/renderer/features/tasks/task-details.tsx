// The selected task: every field, and for a future scheduled pending task Edit (the composer as its
// editor, task-editor.tsx) and Cancel (tasks.cancel, confirmed). Others say why they are read-only.
import { useState } from 'react';
import type { Task } from '../../../shared/domain/push';
import { ConfirmDialog } from '../../components/dialog';
import { call, messageOf } from '../../lib/api';
import { useAction } from '../../lib/use-action';
import { useTasks } from '../../stores/tasks-store';
import type { AccountRef } from '../../../shared/domain/account';
import { scheduleLabel } from '../../forms/schedule';
import { taskChangeQueued, taskEditability } from './task-rules';

/** Every field of the task record (spec 2.6), in full: image addresses as the service rewrote them. */
const TASK_FIELDS: [keyof Task & string, string][] = [
  ['taskId', 'Task id'],
  ['tagId', 'Application (tagId)'],
  ['taskType', 'Type'],
  ['taskStatus', 'Status'],
  ['executionTime', 'Send time'],
  ['executionTimeFormatted', 'Send time (service)'],
  ['taskUpdateTime', 'Last update'],
  ['taskUpdateTimeFormatted', 'Last update (service)'],
  ['userTimeZone', 'Time zone'],
  ['method', 'Method'],
  ['videoId', 'Video id'],
  ['forcedItemPolicy', 'Forced item policy'],
  ['url', 'URL'],
  ['thumbnailUrl', 'Thumbnail'],
  ['iconUrl', 'Icon'],
  ['performer', 'Performer'],
  ['itemDescription', 'Description'],
];

function fieldText(t: Task, key: keyof Task & string): string {
  const v = t[key];
  if (v === null || v === undefined || v === '') return '\u2014';
  // A subscriber's-time send time is a wall time in each zone, not one moment in UTC.
  if (key === 'executionTime' && typeof v === 'number') return scheduleLabel(v, t.userTimeZone);
  if (key === 'taskUpdateTime' && typeof v === 'number')
    return `${new Date(v).toISOString().replace('T', ' ').slice(0, 16)} UTC (${new Date(v).toLocaleString()} your time)`;
  if (key === 'userTimeZone') return v === 1 ? "1: each subscriber's own time zone" : v === 0 ? '0: UTC' : String(v);
  return String(v);
}

export function TaskDetails({ task, account, now }: { task: Task; account: AccountRef; now: number }) {
  const [confirm, setConfirm] = useState(false);
  const { busy, run } = useAction();
  const say = useTasks((s) => s.say);
  const edit = useTasks((s) => s.edit);
  const can = taskEditability(task, now);

  // The outcome is said in the tasks view's notice line.
  const cancel = () =>
    run(
      async () => {
        const item = await call('tasks.cancel', { profileId: account.profileId, accountId: account.accountId, taskId: task.taskId });
        say(taskChangeQueued(item.summary), false);
      },
      (err) => say(messageOf(err), true),
    );

  return (
    <aside className="details" aria-label="Task" data-testid="task-details">
      <h2 className="details-title">{task.title ?? `Task ${task.taskId}`}</h2>
      <div className="details-status">
        <span className="badge">{task.taskStatus}</span>
        <span className="muted">
          {task.taskType} · #{task.taskId}
        </span>
      </div>
      {!can.editable ? (
        <p className="muted" data-testid="task-readonly">
          {can.reason}
        </p>
      ) : (
        <div className="editor-actions task-actions">
          <button type="button" className="danger" onClick={() => setConfirm(true)} disabled={busy} data-testid="task-cancel">
            Cancel push...
          </button>
          <button
            type="button"
            className="primary"
            onClick={() => edit(task.taskId)}
            disabled={busy}
            data-testid="task-edit"
            title="Open it in the composer, with the preview and the time zone"
          >
            Edit...
          </button>
        </div>
      )}
      <dl className="task-fields" data-testid="task-fields">
        {TASK_FIELDS.map(([key, label]) => (
          <div key={key} style={{ display: 'contents' }}>
            <dt>{label}</dt>
            <dd data-testid={`task-field-${key}`}>{fieldText(task, key)}</dd>
          </div>
        ))}
      </dl>
      {confirm ? (
        <ConfirmDialog
          title="Cancel scheduled push"
          message={`Cancel "${task.title ?? task.taskId}"? Subscribers will not receive it.`}
          confirm="Cancel the push"
          onConfirm={() => void cancel()}
          onClose={() => setConfirm(false)}
        />
      ) : null}
    </aside>
  );
}
