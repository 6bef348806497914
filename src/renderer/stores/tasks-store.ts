// The Tasks tab: the application picked, its cached tasks, and the selected task.
import { create } from 'zustand';
import type { Task } from '../../shared/domain/push';
import { call, messageOf } from '../lib/api';
import type { AccountRef } from './workspace-store';

export interface TasksState {
  account: AccountRef | null;
  appId: string | null;
  tasks: Task[];
  loading: boolean;
  error: string | null;
  selectedId: string | null;
  notice: { text: string; bad: boolean } | null;
  setAccount(ref: AccountRef | null): void;
  pickApp(appId: string | null): void;
  load(): Promise<void>;
  refresh(): Promise<void>;
  select(taskId: string | null): void;
  say(text: string, bad: boolean): void;
}

/** Newest first by execution time; the list the grid shows. */
export function sortTasks(tasks: Task[]): Task[] {
  return [...tasks].sort((a, b) => (b.executionTime ?? 0) - (a.executionTime ?? 0) || Number(b.taskId) - Number(a.taskId));
}

export const useTasks = create<TasksState>()((set, get) => ({
  account: null,
  appId: null,
  tasks: [],
  loading: false,
  error: null,
  selectedId: null,
  notice: null,
  setAccount(ref) {
    const cur = get().account;
    if (cur?.profileId === ref?.profileId) {
      set({ account: ref });
      return;
    }
    set({ account: ref, appId: null, tasks: [], selectedId: null, notice: null, error: null });
  },
  pickApp(appId) {
    if (appId === get().appId) return;
    set({ appId, tasks: [], selectedId: null, notice: null, error: null });
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
    set({ loading: true, notice: null });
    try {
      await call('tasks.refresh', { profileId: account.profileId, appId });
      await get().load();
    } catch (err) {
      // Offline: the cached list stays, with the reason next to it.
      set({ notice: { text: messageOf(err), bad: true } });
    } finally {
      set({ loading: false });
    }
  },
  select(taskId) {
    set({ selectedId: taskId, notice: null });
  },
  say(text, bad) {
    set({ notice: { text, bad } });
  },
}));
