// The date_header variant: every HTTP-date the service writes (the Date header, Retry-After as a
// date) in one of the obsolete forms RFC 9110 5.6.7 obliges a recipient to accept, on the service
// clock as always.
import { describe, expect, it } from 'vitest';
import type { RunningSandbox, Variants } from '../../src/sandbox/index';
import { call, sandboxPerFile } from '../helpers/sandbox';

let sb: RunningSandbox;
let token: string;
sandboxPerFile((s, t) => ((sb = s), (token = t)));

const MINUTE = 60_000;
const play = async (variants: Variants) => expect((await call(sb, 'PUT', '/_sandbox/variants', { json: variants })).status).toBe(200);
const dateOf = async () => (await call(sb, 'GET', '/epsilon/push/auth-apps', { token })).headers.date;

// T0 + 10 min is Saturday 21 November 2026, 09:10:00 UTC.
describe('date_header', () => {
  it('writes IMF-fixdate by default', async () => {
    await play({ clock_offset_ms: 10 * MINUTE });
    expect(await dateOf()).toBe('Sat, 21 Nov 2026 09:10:00 GMT');
  });

  it('rfc850: the weekday spelled out, a two-digit year, dashes', async () => {
    await play({ date_header: 'rfc850', clock_offset_ms: 10 * MINUTE });
    expect(await dateOf()).toBe('Saturday, 21-Nov-26 09:10:00 GMT');
  });

  it('asctime: no comma, the day padded with a space, the year last, no zone (it is UTC)', async () => {
    await play({ date_header: 'asctime', clock_offset_ms: 10 * MINUTE });
    expect(await dateOf()).toBe('Sat Nov 21 09:10:00 2026');
    sb.advance(24 * 60 * MINUTE * 12);
    // 3 December: a one-digit day is padded with a space, not a zero.
    expect(await dateOf()).toBe('Thu Dec  3 09:10:00 2026');
  });

  it('writes a Retry-After date in the same form, on the service clock', async () => {
    await play({ date_header: 'asctime', retry_after_date: true });
    await call(sb, 'POST', '/_sandbox/faults', { json: { path_prefix: '/epsilon/push/auth-apps', mode: 'status_503', retry_after: 120 } });
    const r = await call(sb, 'GET', '/epsilon/push/auth-apps', { token });
    expect(r.status).toBe(503);
    expect(r.headers['retry-after']).toBe('Sat Nov 21 09:02:00 2026');
    expect(r.headers.date).toBe('Sat Nov 21 09:00:00 2026');
  });
});
