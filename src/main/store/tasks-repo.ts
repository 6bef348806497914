// Push tasks per application (spec 2.6). Columns for listing and sorting; raw keeps the record as
// received so unknown fields survive.
import { z } from 'zod';
import { taskSchema, type Task } from '../../shared/domain/push';

/** A task record as listed (ids may still be numbers); parsed with the shared schema on the way in. */
export type TaskInput = z.input<typeof taskSchema>;
import type { RepoContext } from './context';
import { StoreError } from './errors';
import { parseJsonColumn } from './json';
import type { QuarantineRepo } from './quarantine-repo';

export interface TasksRepo {
  /** Replaces the tasks of one app with a fresh listing, in one transaction. */
  replaceForApp(profileId: string, appId: string, tasks: readonly TaskInput[]): { inserted: number; updated: number; removed: number };
  /** One task learned outside a refresh (after a send, update or cancel). */
  upsert(profileId: string, task: TaskInput): void;
  /** Tasks of an app (or of the whole profile), newest execution first. */
  list(profileId: string, appId?: string): Task[];
  get(profileId: string, taskId: string): Task | undefined;
}

// Timestamps are whole milliseconds in the spec; a real service sending a fraction must not be
// refused by the INTEGER column (raw keeps the exact value).
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? Math.round(v) : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

const rowSchema = z.object({ task_id: z.string(), raw: z.string() });

export function createTasksRepo(ctx: RepoContext, quarantine: QuarantineRepo): TasksRepo {
  const { db } = ctx;
  const upsertStmt = db.prepare(`INSERT INTO tasks (profile_id, app_id, task_id, task_type, task_status,
      task_update_time, task_update_time_formatted, execution_time, execution_time_formatted, method, video_id,
      forced_item_policy, user_time_zone, title, url, thumbnail_url, icon_url, performer, raw, refreshed_at)
    VALUES (@profileId, @appId, @taskId, @taskType, @taskStatus, @taskUpdateTime, @taskUpdateTimeFormatted,
      @executionTime, @executionTimeFormatted, @method, @videoId, @forcedItemPolicy, @userTimeZone, @title, @url,
      @thumbnailUrl, @iconUrl, @performer, @raw, @now)
    ON CONFLICT (profile_id, task_id) DO UPDATE SET app_id = excluded.app_id, task_type = excluded.task_type,
      task_status = excluded.task_status, task_update_time = excluded.task_update_time,
      task_update_time_formatted = excluded.task_update_time_formatted, execution_time = excluded.execution_time,
      execution_time_formatted = excluded.execution_time_formatted, method = excluded.method,
      video_id = excluded.video_id, forced_item_policy = excluded.forced_item_policy,
      user_time_zone = excluded.user_time_zone, title = excluded.title, url = excluded.url,
      thumbnail_url = excluded.thumbnail_url, icon_url = excluded.icon_url, performer = excluded.performer,
      raw = excluded.raw, refreshed_at = excluded.refreshed_at`);
  const idsOfApp = db.prepare<[string, string], string>('SELECT task_id FROM tasks WHERE profile_id = ? AND app_id = ?').pluck();
  const del = db.prepare('DELETE FROM tasks WHERE profile_id = ? AND task_id = ?');
  const listApp = db.prepare(
    'SELECT task_id, raw FROM tasks WHERE profile_id = ? AND app_id = ? ORDER BY execution_time DESC, task_id DESC',
  );
  const listProfile = db.prepare('SELECT task_id, raw FROM tasks WHERE profile_id = ? ORDER BY execution_time DESC, task_id DESC');
  const getStmt = db.prepare('SELECT task_id, raw FROM tasks WHERE profile_id = ? AND task_id = ?');

  function write(profileId: string, t: Task): void {
    try {
      upsertStmt.run({
        profileId,
        appId: t.tagId,
        taskId: t.taskId,
        taskType: t.taskType,
        taskStatus: t.taskStatus,
        taskUpdateTime: int(t.taskUpdateTime),
        taskUpdateTimeFormatted: str(t.taskUpdateTimeFormatted),
        executionTime: int(t.executionTime),
        executionTimeFormatted: str(t.executionTimeFormatted),
        method: str(t.method),
        videoId: str(t.videoId),
        forcedItemPolicy: str(t.forcedItemPolicy),
        userTimeZone: int(t.userTimeZone),
        title: str(t.title),
        url: str(t.url),
        thumbnailUrl: str(t.thumbnailUrl),
        iconUrl: str(t.iconUrl),
        performer: str(t.performer),
        raw: JSON.stringify(t),
        now: ctx.clock.now(),
      });
    } catch (e) {
      if ((e as { code?: string }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
        throw new StoreError('NOT_FOUND', `Task ${t.taskId} belongs to application ${t.tagId}, which is not cached for this profile`);
      }
      throw e;
    }
  }

  function parseRows(profileId: string, rows: unknown[]): Task[] {
    const out: Task[] = [];
    for (const r of rows) {
      const row = rowSchema.parse(r);
      const parsed = parseJsonColumn(taskSchema, row.raw);
      if (parsed.ok) out.push(parsed.value);
      else {
        quarantine.add({ source: 'tasks', sourceKey: row.task_id, profileId, row: row.raw, reason: parsed.reason }, () =>
          del.run(profileId, row.task_id),
        );
      }
    }
    return out;
  }

  return {
    replaceForApp(profileId, appId, input) {
      const tasks = input.map((t) => taskSchema.parse(t));
      const foreign = tasks.find((t) => t.tagId !== appId);
      if (foreign) throw new StoreError('INVALID_INPUT', `Task ${foreign.taskId} is for application ${foreign.tagId}, not ${appId}`);
      return ctx.tx(() => {
        const before = new Set(idsOfApp.all(profileId, appId));
        let inserted = 0;
        let updated = 0;
        for (const t of tasks) {
          if (before.delete(t.taskId)) updated++;
          else inserted++;
          write(profileId, t);
        }
        for (const id of before) del.run(profileId, id);
        return { inserted, updated, removed: before.size };
      });
    },
    upsert(profileId, task) {
      write(profileId, taskSchema.parse(task));
    },
    list(profileId, appId) {
      return parseRows(profileId, appId === undefined ? listProfile.all(profileId) : listApp.all(profileId, appId));
    },
    get(profileId, taskId) {
      const r = getStmt.get(profileId, taskId);
      return r === undefined ? undefined : parseRows(profileId, [r])[0];
    },
  };
}
