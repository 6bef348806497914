// A future scheduled task, opened in the composer's layout: the same fields with their hints, the
// same "When" with its time-zone choice and conversion, and the live preview. The change is queued
// as tasks.update; main merges it into the whole record it sends (src/main/app/handlers/tasks.ts wholeTaskUpdate).
// What an update cannot change (spec 4.6: the URL and the target) is shown, not offered.
import { useState } from 'react';
import { taskUpdateProblems, type Task } from '../../../shared/domain/push';
import { FormField } from '../../components/form-field';
import { call, messageOf } from '../../lib/api';
import { useAction } from '../../lib/use-action';
import { useServiceClock, useServiceNow } from '../../stores/service-clock-store';
import { useTasks } from '../../stores/tasks-store';
import type { AccountRef } from '../../../shared/domain/account';
import { problemsByField } from '../../forms/campaign-form';
import { pushProblemInWords } from '../../forms/push-words';
import { PushContentFields } from '../push/content-fields';
import { newPushForm } from '../../forms/push-form';
import { PushPreview } from '../push/push-preview';
import { ScheduleField } from '../push/schedule-field';
import { taskChangeQueued, type TaskEditForm, taskPatch, taskToEditForm } from './task-rules';
import { problemCount } from '../../forms/problem-words';

export function TaskEditor({ task, account, now }: { task: Task; account: AccountRef; now: number }) {
  const original = taskToEditForm(task);
  const [form, setForm] = useState<TaskEditForm>(original);
  const { busy, run } = useAction();
  const tasks = useTasks();
  // "In the future" as the service will judge it: on its clock.
  const serviceNow = useServiceNow(account.profileId, Math.max(now, Date.now()));
  const serviceOffset = useServiceClock((c) => c.offsets[account.profileId]);
  const patch = taskPatch(original, form);
  const changed = Object.keys(patch).length;
  const problems = changed === 0 ? [] : taskUpdateProblems(patch, serviceNow);
  // Said as the composer says them: by the labels of the form, never the rules' field names.
  const by = problemsByField(problems.map((p) => ({ field: p.field, message: pushProblemInWords(p) })));
  const close = () => tasks.edit(null);

  // The outcome is said in the tasks view's notice line, not in the editor.
  const queue = () =>
    run(
      async () => {
        const item = await call('tasks.update', { profileId: account.profileId, accountId: account.accountId, taskId: task.taskId, patch });
        close();
        tasks.say(taskChangeQueued(item.summary), false);
      },
      (err) => tasks.say(messageOf(err), true),
    );

  const text = (field: 'title' | 'thumbnailUrl' | 'icon' | 'performer', props: React.InputHTMLAttributes<HTMLInputElement> = {}) => (
    <input
      id={`f-task-${field}`}
      value={form[field]}
      onChange={(e) => setForm({ ...form, [field]: e.target.value })}
      data-testid={`task-${field}`}
      {...props}
    />
  );
  // The preview reads the composer's form: the task's URL with the fields being edited.
  const preview = {
    ...newPushForm(),
    title: form.title,
    url: task.url ?? '',
    itemDescription: form.itemDescription,
    thumbnailUrl: form.thumbnailUrl,
    icon: form.icon,
  };

  return (
    <div className="push task-editor" data-testid="task-editor">
      <div className="push-form">
        <div className="editor-head">
          <h2 className="details-title">Edit scheduled push #{task.taskId}</h2>
          <span className="muted">application {task.tagId}</span>
          <button type="button" className="head-action" onClick={close} data-testid="task-edit-back">
            Back to tasks
          </button>
        </div>
        <div className="form">
          <PushContentFields
            value={form}
            onEdit={(patch) => setForm({ ...form, ...patch })}
            problems={by}
            prefix="task-"
            inputTestPrefix="task"
            placeholders={false}
            urlRow={
              <div className="form-row">
                <span className="form-label">URL</span>
                <span className="form-control" data-testid="task-url">
                  {task.url ?? '\u2014'} <span className="muted form-hint">An update cannot change the URL or the target.</span>
                </span>
              </div>
            }
          />
          <FormField label="Performer" name="task-performer" problems={by.performer} hint="Who changes it (recorded by the service).">
            {text('performer')}
          </FormField>
          <ScheduleField
            value={{ mode: 'scheduled', executionLocal: form.executionLocal, userTimeZone: form.userTimeZone }}
            onChange={(p) =>
              setForm({
                ...form,
                ...(p.executionLocal !== undefined ? { executionLocal: p.executionLocal } : {}),
                ...(p.userTimeZone !== undefined ? { userTimeZone: p.userTimeZone } : {}),
              })
            }
            serviceNow={serviceNow}
            serviceOffsetMs={serviceOffset}
            problems={[...(by.executionTime ?? []), ...(by.userTimeZone ?? [])]}
            scheduledOnly
            testPrefix="task"
          />
        </div>
      </div>
      <PushPreview form={preview} />
      <div className="push-target">
        <div className="editor-actions">
          <span className="muted" data-testid="task-edit-state">
            {changed === 0
              ? 'No changes yet'
              : problems.length > 0
                ? problemCount(problems.length)
                : `${changed} change${changed === 1 ? '' : 's'} ready to queue`}
          </span>
          <button type="button" onClick={close} disabled={busy} data-testid="task-edit-discard">
            Discard changes
          </button>
          <button
            type="button"
            className="primary"
            onClick={() => void queue()}
            disabled={busy || changed === 0 || problems.length > 0}
            data-testid="task-save"
          >
            Queue changes
          </button>
        </div>
      </div>
    </div>
  );
}
