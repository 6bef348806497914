// create_answer: the create's answer wrapped under a key, or without the fields the request sent.
import { expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, nativeCampaign, sandboxPerFile } from '../helpers/sandbox';

let sb: RunningSandbox;
let token: string;
sandboxPerFile((s, t) => ((sb = s), (token = t)));

const create = () => call(sb, 'POST', '/core/api/1.0/acmeshoes/campaigns/', { token, json: nativeCampaign() });
const play = async (v: string) => expect((await call(sb, 'PUT', '/_sandbox/variants', { json: { create_answer: v } })).status).toBe(200);

it('by default answers the campaign itself, with what was sent', async () => {
  expect((await create()).body).toMatchObject({ id: expect.any(Number), advertiser_id: 'acmeshoes', name: 'Spring sale', cpc: 0.35 });
});

it('wrapped: the campaign under "campaign"', async () => {
  await play('wrapped');
  const r = await create();
  expect(r.status).toBe(200);
  expect(Object.keys(r.body as object)).toEqual(['campaign']);
  expect((r.body as { campaign: unknown }).campaign).toMatchObject({ id: expect.any(Number), name: 'Spring sale', cpc: 0.35 });
});

it('sparse: only what the service assigned or filled in', async () => {
  await play('sparse');
  const body = (await create()).body as Record<string, unknown>;
  expect(body).toMatchObject({ id: expect.any(Number), advertiser_id: 'acmeshoes', status: 'PENDING_APPROVAL', spent: 0 });
  for (const sent of Object.keys(nativeCampaign())) expect(body).not.toHaveProperty(sent);
  // The campaign itself is stored whole.
  const state = await call(sb, 'GET', '/_sandbox/state/campaigns?account=acmeshoes');
  expect((state.body as { campaigns: Record<string, unknown>[] }).campaigns.find((c) => c.id === body.id)).toMatchObject({
    name: 'Spring sale',
    cpc: 0.35,
  });
});
