// The Tasks tab: an application's push tasks (cached, refreshable), in the virtualized grid;
// the selected task's details, editable only while it is a future scheduled push.
import { useCallback, useEffect, useState } from 'react';
import type { Task } from '../../../shared/domain/push';
import { VirtualGrid, type GridColumn } from '../../components/virtual-grid';
import { scheduleLabel } from '../../forms/schedule';
import { usePush } from '../../stores/push-store';
import { useTasks, visibleTasks, type TaskSort } from '../../stores/tasks-store';
import { KNOWN_TASK_STATUSES, TASK_TYPES } from '../../../shared/domain/push';
import { valueChoices } from '../../../shared/domain/service-values';
import { useWorkspace } from '../../stores/workspace-store';
import { SwPath } from './sw-path';
import { TaskDetails } from './task-details';
import { TaskEditor } from './task-editor';
import { statusClass, taskEditability } from './task-rules';

const COLUMNS: GridColumn<Task>[] = [
  { id: 'title', title: 'Title', width: 220, grow: true, render: (t) => <span data-testid="cell-task-title">{t.title ?? ''}</span> },
  {
    id: 'status',
    title: 'Status',
    width: 110,
    render: (t) => (
      <span className={`badge ${statusClass(t.taskStatus)}`} data-testid="cell-task-status">
        {t.taskStatus}
      </span>
    ),
  },
  { id: 'type', title: 'Type', width: 90, render: (t) => t.taskType },
  {
    id: 'when',
    title: 'Send time',
    width: 260,
    render: (t) => {
      const text = typeof t.executionTime === 'number' ? scheduleLabel(t.executionTime, t.userTimeZone) : '\u2014';
      return (
        <span data-testid="cell-task-when" title={text}>
          {text}
        </span>
      );
    },
  },
  { id: 'id', title: 'Task', width: 90, align: 'right', render: (t) => t.taskId },
];

export function TasksView({ now }: { now: number }) {
  const account = useWorkspace((s) => s.selected);
  const apps = usePush((s) => s.apps);
  const appsError = usePush((s) => s.appsError);
  // A connection whose apps were never fetched has them fetched by this first look (it may take a
  // moment): until it answers the list says so, rather than that there are none.
  const [appsLoading, setAppsLoading] = useState(true);
  const s = useTasks();
  useEffect(() => {
    void usePush
      .getState()
      .loadApps()
      .finally(() => setAppsLoading(false));
  }, []);
  useEffect(() => {
    if (!s.appId && apps.length > 0) s.pickApp(apps[0].appId);
  }, [apps, s]);
  const shown = visibleTasks(s.tasks, s.typeFilter, s.statusFilter, s.sortBy);
  const getRow = useCallback((i: number) => shown[i], [shown]);
  const onSelect = useCallback((_i: number, t: Task) => useTasks.getState().select(t.taskId), []);
  const onRange = useCallback(() => undefined, []);
  const selectedIndex = s.selectedId ? shown.findIndex((t) => t.taskId === s.selectedId) : -1;
  const selected = selectedIndex >= 0 ? shown[selectedIndex] : null;
  const statuses = valueChoices(
    KNOWN_TASK_STATUSES,
    s.tasks.map((t) => t.taskStatus),
  );
  const app = apps.find((a) => a.appId === s.appId) ?? null;
  const editing = s.editingId ? s.tasks.find((t) => t.taskId === s.editingId) : undefined;
  // The editor stays open only while the task can still be changed (a refresh may show it sent).
  const editable = editing && account && taskEditability(editing, now).editable ? editing : null;

  return (
    <div className="campaigns">
      <div className="toolbar" role="toolbar" aria-label="Tasks">
        <label className="field">
          <span className="field-label">Application</span>
          <select value={s.appId ?? ''} onChange={(e) => s.pickApp(e.target.value || null)} data-testid="task-app">
            {apps.length === 0 ? <option value="">No applications</option> : null}
            {apps.map((a) => (
              <option key={a.appId} value={a.appId}>
                {a.publisher} ({a.appId})
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          onClick={() => void s.refresh()}
          disabled={!s.appId || s.loading}
          data-testid="tasks-refresh"
          title="Fetch this application's tasks from the service"
        >
          {s.loading ? 'Refreshing...' : 'Refresh tasks'}
        </button>
        <div className="task-filters">
          <FilterSelect
            label="Type"
            value={s.typeFilter}
            choices={TASK_TYPES}
            onChange={(v) => s.setView({ typeFilter: v })}
            testId="task-type-filter"
          />
          <FilterSelect
            label="Status"
            value={s.statusFilter}
            choices={statuses}
            onChange={(v) => s.setView({ statusFilter: v })}
            testId="task-status-filter"
          />
          <label className="field">
            <span className="field-label">Sort by</span>
            <select value={s.sortBy} onChange={(e) => s.setView({ sortBy: e.target.value as TaskSort })} data-testid="task-sort">
              <option value="send">send time</option>
              <option value="update">last update</option>
            </select>
          </label>
        </div>
        {app && account ? <SwPath key={app.appId} app={app} account={account} /> : null}
        <span className="toolbar-count muted" data-testid="task-count">
          {shown.length === s.tasks.length ? `${s.tasks.length} tasks` : `${shown.length} of ${s.tasks.length} tasks`}
        </span>
      </div>
      {s.progress ? (
        <p className="notice" role="status" data-testid="tasks-progress">
          {s.progress}
        </p>
      ) : null}
      {s.notice || s.error ? (
        <p className={s.notice && !s.notice.bad ? 'notice notice-ok' : 'notice form-problem'} role="status" data-testid="tasks-notice">
          {s.notice?.text ?? s.error}
        </p>
      ) : null}
      {editable && account ? (
        <TaskEditor key={editable.taskId} task={editable} account={account} now={now} />
      ) : (
        <div className="campaigns-body tasks-body">
          <VirtualGrid
            columns={COLUMNS}
            rowCount={shown.length}
            rowHeight={28}
            getRow={getRow}
            selectedIndex={selectedIndex >= 0 ? selectedIndex : null}
            onSelect={onSelect}
            onRangeChange={onRange}
            sort={null}
            onSort={() => undefined}
            label="Tasks"
            testId="task-grid"
            empty={
              <p className="muted" data-testid="tasks-empty">
                {s.appId
                  ? 'No tasks for this application.'
                  : apps.length > 0
                    ? 'Pick an application.'
                    : appsLoading
                      ? 'Fetching the applications of this connection...'
                      : appsError
                        ? appsError
                        : 'This connection has no applications: its client id is not granted any (ask the service to add them).'}
              </p>
            }
          />
          {selected && account ? (
            <TaskDetails
              key={`${selected.taskId}:${selected.taskStatus}:${selected.executionTime}`}
              task={selected}
              account={account}
              now={now}
            />
          ) : (
            <aside className="details">
              <p className="muted">Select a task to see it, or to change a scheduled one.</p>
            </aside>
          )}
        </div>
      )}
    </div>
  );
}

/** A filter over one field of the tasks: "any" or one of the values. */
function FilterSelect({
  label,
  value,
  choices,
  onChange,
  testId,
}: {
  label: string;
  value: string;
  choices: readonly string[];
  onChange(v: string): void;
  testId: string;
}) {
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <select value={value} onChange={(e) => onChange(e.target.value)} data-testid={testId}>
        <option value="">any</option>
        {choices.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </select>
    </label>
  );
}
