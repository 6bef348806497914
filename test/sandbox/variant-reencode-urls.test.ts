// The reencode_urls variant: a service may store a tracking code and a push's url re-serialised:
// the same parameters in another order, percent-encoding spelled another way.
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, nativeCampaign, pushEvent, sandboxPerFile } from '../helpers/sandbox';

let sb: RunningSandbox;
let token: string;
sandboxPerFile((s, t) => ((sb = s), (token = t)));

const SENT = 'utm_source=news%2Dletter&utm_campaign=spring+sale&ref=A%2Fb';
const params = (q: string) => [...new URLSearchParams(q)].sort((a, b) => (a[0] < b[0] ? -1 : 1));
const trackingOf = async (id: number) => {
  const r = await call(sb, 'GET', `/core/api/1.0/oldtimerltd/campaigns?campaign_ids=${id}`, { token });
  return (r.body as { results: { tracking_code: string }[] }).results[0].tracking_code;
};

describe('reencode_urls', () => {
  it('is off by default: the tracking code is stored as sent', async () => {
    const r = await call(sb, 'POST', '/core/api/1.0/oldtimerltd/campaigns/', { token, json: nativeCampaign({ tracking_code: SENT }) });
    expect(await trackingOf((r.body as { id: number }).id)).toBe(SENT);
  });

  it('stores the same parameters in another order and spelling', async () => {
    expect((await call(sb, 'PUT', '/_sandbox/variants', { json: { reencode_urls: true } })).status).toBe(200);
    const r = await call(sb, 'POST', '/core/api/1.0/oldtimerltd/campaigns/', { token, json: nativeCampaign({ tracking_code: SENT }) });
    const stored = await trackingOf((r.body as { id: number }).id);
    expect(stored).not.toBe(SENT);
    expect(stored).toContain('spring%20sale');
    expect(stored).toContain('news-letter');
    expect(stored).toContain('A%2fb');
    expect(stored.split('&').map((p) => p.split('=')[0])).not.toEqual(['utm_source', 'utm_campaign', 'ref']);
    expect(params(stored)).toEqual(params(SENT));
  });

  it('re-serialises the query of a push url, keeping the rest', async () => {
    expect((await call(sb, 'PUT', '/_sandbox/variants', { json: { reencode_urls: true } })).status).toBe(200);
    const url = 'https://news.example.com/digest?b=2&a=x+y#top';
    expect((await call(sb, 'POST', '/epsilon/push', { token, json: { pushEvents: [pushEvent({ url })] } })).status).toBe(200);
    const tasks = (await call(sb, 'GET', '/epsilon/task?tagId=1001', { token })).body as { url: string }[];
    expect(tasks.at(-1)?.url).toBe('https://news.example.com/digest?a=x%20y&b=2#top');
  });
});
