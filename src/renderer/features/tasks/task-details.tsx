// The selected task: its fields, and for a future scheduled pending task an edit form
// (tasks.update) and a cancel button (tasks.cancel, confirmed). Others say why they are read-only.
import { useState } from 'react';
import { taskUpdateProblems, type Task } from '../../../shared/domain/push';
import { ConfirmDialog } from '../../components/dialog';
import { FormField } from '../../components/form-field';
import { call, messageOf } from '../../lib/api';
import { useTasks } from '../../stores/tasks-store';
import type { AccountRef } from '../../stores/workspace-store';
import { problemsByField } from '../drafts/campaign-form';
import { taskEditability, taskPatch, taskToEditForm, type TaskEditForm } from './task-rules';

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
  if ((key === 'executionTime' || key === 'taskUpdateTime') && typeof v === 'number') return `${new Date(v).toISOString().replace('T', ' ').slice(0, 16)} UTC (${new Date(v).toLocaleString()} your time)`;
  if (key === 'userTimeZone') return v === 1 ? "1: each subscriber's own time zone" : v === 0 ? '0: UTC' : String(v);
  return String(v);
}

export function TaskDetails({ task, account, now }: { task: Task; account: AccountRef; now: number }) {
  const original = taskToEditForm(task);
  const [form, setForm] = useState<TaskEditForm>(original);
  const [confirm, setConfirm] = useState(false);
  const [busy, setBusy] = useState(false);
  const say = useTasks((s) => s.say);
  const can = taskEditability(task, now);
  const patch = taskPatch(original, form);
  const problems = Object.keys(patch).length === 0 ? [] : taskUpdateProblems(patch, Date.now());
  const by = problemsByField(problems);

  const run = async (what: 'update' | 'cancel') => {
    setBusy(true);
    try {
      const ref = { profileId: account.profileId, accountId: account.accountId, taskId: task.taskId };
      const item = what === 'update' ? await call('tasks.update', { ...ref, patch }) : await call('tasks.cancel', ref);
      say(`Queued: ${item.summary}. The list updates once it is sent.`, false);
    } catch (err) {
      say(messageOf(err), true);
    } finally {
      setBusy(false);
    }
  };

  const input = (field: keyof TaskEditForm, props: React.InputHTMLAttributes<HTMLInputElement> = {}) => (
    <input id={`f-${field}`} value={form[field]} onChange={(e) => setForm({ ...form, [field]: e.target.value })} disabled={!can.editable} data-testid={`task-${field}`} {...props} />
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
      ) : null}
      <dl className="task-fields" data-testid="task-fields">
        {TASK_FIELDS.map(([key, label]) => (
          <div key={key} style={{ display: 'contents' }}>
            <dt>{label}</dt>
            <dd data-testid={`task-field-${key}`}>{fieldText(task, key)}</dd>
          </div>
        ))}
      </dl>
      <div className="form">
        <FormField label="Title" name="title" problems={by.title}>
          {input('title')}
        </FormField>
        <FormField label="Send at" name="executionTime" problems={by.executionTime}>
          {input('executionLocal', { type: 'datetime-local' })}
        </FormField>
        <FormField label="Thumbnail" name="thumbnailUrl" problems={by.thumbnailUrl}>
          {input('thumbnailUrl')}
        </FormField>
        <FormField label="Icon" name="icon" problems={by.icon}>
          {input('icon')}
        </FormField>
        <FormField label="Description" name="itemDescription" problems={by.itemDescription}>
          {input('itemDescription')}
        </FormField>
        <FormField label="Performer" name="performer" problems={by.performer}>
          {input('performer')}
        </FormField>
        {task.url ? (
          <div className="form-row">
            <span className="form-label">URL</span>
            <span className="form-control">{task.url}</span>
          </div>
        ) : null}
      </div>
      {can.editable ? (
        <div className="editor-actions">
          <button type="button" className="danger" onClick={() => setConfirm(true)} disabled={busy} data-testid="task-cancel">
            Cancel push...
          </button>
          <button type="button" className="primary" onClick={() => void run('update')} disabled={busy || Object.keys(patch).length === 0 || problems.length > 0} data-testid="task-save">
            Queue changes
          </button>
        </div>
      ) : null}
      {confirm ? (
        <ConfirmDialog
          title="Cancel scheduled push"
          message={`Cancel "${task.title ?? task.taskId}"? Subscribers will not receive it.`}
          confirm="Cancel the push"
          onConfirm={() => void run('cancel')}
          onClose={() => setConfirm(false)}
        />
      ) : null}
    </aside>
  );
}
