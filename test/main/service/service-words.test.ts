// The service's words reach the person over real HTTP, whatever error body shape the service
// chose (DECISIONS client 12): our sandbox's {message} bodies and RFC 9457 problem+json (the
// problem_json variant). And a token endpoint that echoes the request (token_error_echo) never
// gets the client secret into an error, in any spelling.
import { describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox, type Variants } from '../../../src/sandbox/index';
import { call } from '../../helpers/sandbox';
import { clientFor, closedAfterTest, rejection } from '../../helpers/service-client';
import { SECRET, testFixtures } from '../../helpers/fixtures';
import { secretSpellings } from './secret-spellings';

async function start(variants: Variants, fixtures = testFixtures({ secret: SECRET })): Promise<RunningSandbox> {
  return closedAfterTest(await startSandbox({ variants, clock: 'real', fixtures }));
}

const campaign = {
  name: 'Target CPA',
  branding_text: 'Acme Shoes',
  spending_limit: 900,
  spending_limit_model: 'MONTHLY',
  // A value the desk may send (the service may use it) that the sandbox does not know: 400.
  bid_strategy: 'TARGET_CPA',
  marketing_objective: 'LEADS_GENERATION',
};

describe.each([
  ['{http_status, message} bodies', {}],
  ['problem+json bodies', { problem_json: true }],
  ['{statusCode, message: [...], error} bodies', { error_shape: 'message_list' }],
] as [string, Variants][])("the service's words, with %s", (_, variants) => {
  it('shows why a create was refused as the service said it, not only its status', async () => {
    const s = await start(variants);
    const client = closedAfterTest(clientFor(s));
    const e = await rejection(client.createCampaign('acmeshoes', campaign));
    expect(e).toMatchObject({ kind: 'validation', status: 400 });
    expect(e.message).toBe('The service refused to create a campaign in acmeshoes: bid_strategy must be one of FIXED, MAX_CONVERSIONS');
  });

  it("shows the service's words for a refused account, an unknown task and a refused application", async () => {
    const s = await start(variants);
    const client = closedAfterTest(clientFor(s));
    const forbidden = await rejection(client.listCampaigns('strangers', { fetchLevel: 'R' }));
    expect(forbidden.kind).toBe('forbidden');
    const said = (await call(s, 'GET', '/core/api/1.0/strangers/campaigns?fetch_level=R', { token: await tokenOf(s) })).body as Record<
      string,
      string | string[]
    >;
    const words = said.message ?? said.detail;
    expect(forbidden.message).toContain(Array.isArray(words) ? words[0] : words);
    const missing = await rejection(client.deleteTask('987654321'));
    expect(missing).toMatchObject({ kind: 'not_found', status: 404 });
    expect(missing.message).toContain('Task not found');
    const notGranted = await rejection(client.listTasks('1003'));
    expect(notGranted.message).toContain('Not authorized to send notifications for specified application');
  });
});

async function tokenOf(s: RunningSandbox): Promise<string> {
  const r = await call(s, 'POST', '/authentication/oauth/token', {
    form: { grant_type: 'client_credentials', client_id: 'demo-client', client_secret: 'demo-secret-7f3a9c' },
  });
  return (r.body as { access_token: string }).access_token;
}

describe('a token endpoint that echoes the request in its errors', () => {
  // Spaces, characters that encodeURIComponent and a form body spell differently, and the form's
  // own delimiters: every spelling of it is a different string.
  const CANARY = `Echo Canary!'()~*+%&=;x 9`;

  it('keeps every spelling of the secret out of the error, and still shows what the server said', async () => {
    const s = await start({ token_error_echo: true }, testFixtures({ secret: CANARY }));
    // A wrong client id with the right secret, and the right id with a wrong secret that contains the real one.
    const cases = [
      { clientId: 'no-such-client', secret: CANARY },
      { clientId: 'demo-client', secret: `${CANARY}-typo` },
    ];
    for (const { clientId, secret } of cases) {
      const client = closedAfterTest(
        clientFor(s, { credentials: { flow: 'client_credentials', clientId, getSecret: () => Promise.resolve(secret) } }),
      );
      const e = await rejection(client.authenticate());
      expect(e).toMatchObject({ kind: 'unauthorized', reason: 'credentials_rejected', status: 401 });
      expect(e.message).toContain('invalid_client: Client authentication failed: unknown client or wrong secret (request: ');
      expect(e.message).toContain('[redacted]');
      const shown = JSON.stringify({ message: e.message, error: e.toJSON(), stack: e.stack });
      for (const [how, spelled] of secretSpellings(secret, clientId))
        expect(shown.includes(spelled), `${how} of the secret in ${e.message}`).toBe(false);
      for (const [how, spelled] of secretSpellings(CANARY, clientId))
        expect(shown.includes(spelled), `${how} of the canary in ${e.message}`).toBe(false);
      await client.close();
    }
  });
});
