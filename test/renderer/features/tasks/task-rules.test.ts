import { describe, expect, it } from 'vitest';
import { taskSchema } from '../../../../src/shared/domain/push';
import { statusClass, taskEditability, taskPatch, taskToEditForm } from '../../../../src/renderer/features/tasks/task-rules';
import { taskIsFuture } from '../../../../src/main/sync/recheck';

const NOW = 1_900_000_000_000;
const task = (o: Record<string, unknown>) =>
  taskSchema.parse({ taskId: 1, tagId: 1001, taskType: 'scheduled', taskStatus: 'pending', executionTime: NOW + 60_000, title: 'T', ...o });

describe('task editability', () => {
  it('allows editing a future scheduled pending task only', () => {
    expect(taskEditability(task({}), NOW)).toEqual({ editable: true });
  });
  it('reads the type and status in whatever case the service writes them (DECISIONS client 18)', () => {
    for (const [taskType, taskStatus] of [
      ['SCHEDULED', 'PENDING'],
      ['Scheduled', 'Pending'],
    ]) {
      expect(taskEditability(task({ taskType, taskStatus }), NOW)).toEqual({ editable: true });
      expect(taskIsFuture(task({ taskType, taskStatus }), NOW)).toBe(true);
    }
    expect(taskEditability(task({ taskStatus: 'COMPLETED' }), NOW).editable).toBe(false);
  });
  it('gives the reason for every other task', () => {
    expect(taskEditability(task({ taskStatus: 'completed' }), NOW)).toEqual({
      editable: false,
      reason: "Already sent: it can't be edited or cancelled",
    });
    expect(taskEditability(task({ taskStatus: 'cancelled' }), NOW).editable).toBe(false);
    expect(taskEditability(task({ taskType: 'immediate', taskStatus: 'pending' }), NOW).editable).toBe(false);
    expect(taskEditability(task({ executionTime: NOW - 1 }), NOW)).toMatchObject({
      editable: false,
      reason: expect.stringContaining('time has come'),
    });
    expect(taskEditability(task({ taskStatus: 'paused_by_ops' }), NOW)).toMatchObject({ reason: expect.stringContaining('paused_by_ops') });
  });
  it('knows a cancelled task in the other spelling and any case, in its reason and its badge', () => {
    for (const taskStatus of ['canceled', 'CANCELED', 'Cancelled']) {
      expect(taskEditability(task({ taskStatus }), NOW)).toEqual({ editable: false, reason: "Cancelled: it can't be edited or cancelled" });
      expect(statusClass(taskStatus)).toBe('status-muted');
    }
    expect(statusClass('paused_by_ops')).toBe('status-other');
  });
});

describe('task patch', () => {
  it('holds only the fields that changed', () => {
    const before = taskToEditForm(task({ performer: 'a' }));
    expect(taskPatch(before, { ...before, title: 'New' })).toEqual({ title: 'New' });
    expect(taskPatch(before, before)).toEqual({});
    const moved = taskPatch(before, { ...before, executionLocal: '2031-01-01T10:00' });
    // The picker's wall time is UTC's (or each subscriber's), never this computer's zone.
    expect(moved).toEqual({ executionTime: Date.UTC(2031, 0, 1, 10) });
    expect(taskPatch(before, { ...before, userTimeZone: 1 })).toEqual({ userTimeZone: 1 });
  });
  it("shows the task's time as the composer's picker does, with its clock", () => {
    const form = taskToEditForm(task({ executionTime: Date.UTC(2031, 4, 14, 9, 0), userTimeZone: 1 }));
    expect(form.executionLocal).toBe('2031-05-14T09:00');
    expect(form.userTimeZone).toBe(1);
    expect(taskToEditForm(task({ userTimeZone: null })).userTimeZone).toBe(0);
  });
});
