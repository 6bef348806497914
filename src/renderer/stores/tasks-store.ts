// The Tasks tab: the application picked, its cached tasks, and the selected task.
import { create } from 'zustand';
import type { Task } from '../../shared/domain/push';
import { compareIds } from '../../shared/domain/service-id';
import { call, messageOf } from '../lib/api';
import type { AccountRef } from '../../shared/domain/account';
import { isServiceValue } from '../../shared/domain/service-values';

export interface TasksState {
  account: AccountRef | null;
  appId: string | null;
  tasks: Task[];
  loading: boolean;
  error: string | null;
  selectedId: string | null;
  notice: { text: string; bad: boolean } | null;
  typeFilter: string;
  statusFilter: string;
  sortBy: TaskSort;
  /** What a refresh is doing, said while it runs. */
  progress: string | null;
  /** The task open in the composer as its editor, if any. */
  editingId: string | null;
  edit(taskId: string | null): void;
  setView(patch: Partial<Pick<TasksState, 'typeFilter' | 'statusFilter' | 'sortBy'>>): void;
  setAccount(ref: AccountRef | null): void;
  pickApp(appId: string | null): void;
  load(): Promise<void>;
  refresh(): Promise<void>;
  select(taskId: string | null): void;
  say(text: string, bad: boolean): void;
}

export type TaskSort = 'send' | 'update';

/** Newest first by send (execution) time or by last update; the list the grid shows. */
export function sortTasks(tasks: Task[], by: TaskSort = 'send'): Task[] {
  const key = (t: Task) => (by === 'send' ? t.executionTime : t.taskUpdateTime) ?? 0;
  return [...tasks].sort((a, b) => key(b) - key(a) || compareIds(b.taskId, a.taskId));
}

/** The tasks the filters let through ('' = any), in the chosen order. */
export function visibleTasks(tasks: Task[], type: string, status: string, by: TaskSort): Task[] {
  return sortTasks(
    tasks.filter((t) => (type === '' || isServiceValue(t.taskType, type)) && (status === '' || isServiceValue(t.taskStatus, status))),
    by,
  );
}

export const useTasks = create<TasksState>()((set, get) => ({
  account: null,
  appId: null,
  tasks: [],
  loading: false,
  error: null,
  selectedId: null,
  notice: null,
  typeFilter: '',
  statusFilter: '',
  sortBy: 'send',
  progress: null,
  editingId: null,
  edit(taskId) {
    set({ editingId: taskId, ...(taskId ? { notice: null } : {}) });
  },
  setView(patch) {
    set(patch);
  },
  setAccount(ref) {
    const cur = get().account;
    if (cur?.profileId === ref?.profileId) {
      set({ account: ref });
      return;
    }
    set({ account: ref, appId: null, tasks: [], selectedId: null, editingId: null, notice: null, error: null });
  },
  pickApp(appId) {
    if (appId === get().appId) return;
    set({ appId, tasks: [], selectedId: null, editingId: null, notice: null, error: null });
    void get().load();
  },
  async load() {
    const { account, appId } = get();
    if (!account || !appId) return;
    set({ loading: true });
    try {
      const tasks = sortTasks(await call('tasks.list', { profileId: account.profileId, appId }));
      if (get().appId === appId) set({ tasks, error: null });
    } catch (err) {
      set({ error: messageOf(err) });
    } finally {
      set({ loading: false });
    }
  },
  async refresh() {
    const { account, appId } = get();
    if (!account || !appId) return;
    set({ loading: true, notice: null, progress: `Fetching the tasks of application ${appId} from the service...` });
    try {
      await call('tasks.refresh', { profileId: account.profileId, appId });
      set({ progress: 'Reading the fetched tasks...' });
      await get().load();
      set({ notice: { text: `Refreshed: ${get().tasks.length} tasks of application ${appId}.`, bad: false } });
    } catch (err) {
      // Offline: the cached list stays, with the reason next to it.
      set({ notice: { text: messageOf(err), bad: true } });
    } finally {
      set({ loading: false, progress: null });
    }
  },
  select(taskId) {
    set({ selectedId: taskId, notice: null });
  },
  say(text, bad) {
    set({ notice: { text, bad } });
  },
}));
