// date_form: the service's date-times in another ISO 8601 spelling (the same instant, or the same
// wall time without its offset), and, beyond the text, a campaign's date-times as epoch numbers.
import { describe, expect, it } from 'vitest';
import type { RunningSandbox, Variants } from '../../src/sandbox/index';
import { call, DAY, nativeCampaign, sandboxPerFile, T0 } from '../helpers/sandbox';

let sb: RunningSandbox;
let token: string;
sandboxPerFile((s, t) => ((sb = s), (token = t)));

const play = async (variants: Variants) => expect((await call(sb, 'PUT', '/_sandbox/variants', { json: variants })).status).toBe(200);

/** A campaign created now with a start date, as its create and a listing write it. */
async function created(): Promise<{ create: Record<string, unknown>; listed: Record<string, unknown> }> {
  const r = await call(sb, 'POST', '/core/api/1.0/acmeshoes/campaigns/', {
    token,
    json: nativeCampaign({ start_date: '2026-12-01T10:15:30.250Z' }),
  });
  expect(r.status, r.text).toBe(200);
  const create = r.body as Record<string, unknown>;
  const l = await call(sb, 'GET', `/core/api/1.0/acmeshoes/campaigns?fetch_level=RAP&campaign_ids=${String(create.id)}`, { token });
  return { create, listed: (l.body as { results: Record<string, unknown>[] }).results[0] };
}

/** The scheduled fixture task (T0 + 1 day) as the task list writes it. */
async function scheduledTask(): Promise<Record<string, unknown>> {
  const r = await call(sb, 'GET', '/epsilon/task?tagId=1001', { token });
  return (r.body as Record<string, unknown>[]).find((t) => t.executionTime === T0 + DAY)!;
}

describe('date_form', () => {
  const cases: [NonNullable<Variants['date_form']>, string, string][] = [
    ['seconds', '2026-12-01T10:15:30Z', '2026-11-22T09:00:00Z'],
    ['micros', '2026-12-01T10:15:30.250000Z', '2026-11-22T09:00:00.000000Z'],
    ['plus_zero', '2026-12-01T10:15:30.250+00:00', '2026-11-22T09:00:00.000+00:00'],
    ['space', '2026-12-01 10:15:30.250Z', '2026-11-22 09:00:00.000Z'],
    ['minutes', '2026-12-01T10:15Z', '2026-11-22T09:00Z'],
    ['no_zone', '2026-12-01T10:15:30.250', '2026-11-22T09:00:00.000'],
  ];
  for (const [form, start, execution] of cases) {
    it(`${form}: writes campaign and task date-times as ${start}`, async () => {
      await play({ date_form: form });
      const { create, listed } = await created();
      expect(create.start_date).toBe(start);
      expect(listed.start_date).toBe(start);
      expect((await scheduledTask()).executionTimeFormatted).toBe(execution);
    });
  }

  it('combines with date_offset: the wall time at that offset, in the form', async () => {
    await play({ date_form: 'no_zone', date_offset: '+05:30' });
    expect((await created()).listed.start_date).toBe('2026-12-01T15:45:30.250');
    await play({ date_form: 'space', date_offset: '-08:00' });
    expect((await scheduledTask()).executionTimeFormatted).toBe('2026-11-22 01:00:00.000-08:00');
  });

  it("epoch_ms: a campaign's start_date and created_at are numbers; task texts keep the ISO form", async () => {
    await play({ date_form: 'epoch_ms' });
    const { create, listed } = await created();
    expect(create.start_date).toBe(Date.parse('2026-12-01T10:15:30.250Z'));
    expect(listed.start_date).toBe(Date.parse('2026-12-01T10:15:30.250Z'));
    expect(listed.created_at).toBe(T0);
    expect((await scheduledTask()).executionTimeFormatted).toBe('2026-11-22T09:00:00.000Z');
  });

  it('by default: ISO 8601 in UTC with milliseconds and Z', async () => {
    expect((await created()).listed.start_date).toBe('2026-12-01T10:15:30.250Z');
  });

  it('leaves the control API in the stored form', async () => {
    await play({ date_form: 'epoch_ms' });
    const { create } = await created();
    const state = await call(sb, 'GET', '/_sandbox/state/campaigns?account=acmeshoes');
    const stored = (state.body as { campaigns: Record<string, unknown>[] }).campaigns.find((c) => String(c.id) === String(create.id))!;
    expect(stored.start_date).toBe('2026-12-01T10:15:30.250Z');
  });
});
