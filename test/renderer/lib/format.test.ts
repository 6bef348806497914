import { describe, expect, it } from 'vitest';
import { DASH, formatDateTime } from '../../../src/renderer/lib/format';

describe('date and time in grid columns', () => {
  it('shows a moment to the minute, without seconds, so it fits the Send time column', () => {
    const text = formatDateTime(Date.UTC(2026, 10, 23, 8, 27, 41));
    expect(text).toContain('2026');
    expect(text).not.toMatch(/\d:\d\d:\d\d/);
    expect(text.length).toBeLessThanOrEqual(24);
  });

  it('shows a dash for a task without a send time', () => {
    expect(formatDateTime(null)).toBe(DASH);
    expect(formatDateTime(undefined)).toBe(DASH);
    expect(formatDateTime(Number.NaN)).toBe(DASH);
  });
});
