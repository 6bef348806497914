import { describe, expect, it } from 'vitest';
import { dispatch } from '../../../src/main/app/dispatch';
import { createTransportTable } from '../../helpers/transport-handlers';

const validCreate = {
  name: 'Acme',
  baseUrl: 'https://api.example.com',
  authUrl: 'https://auth.example.com',
  pushUrl: 'https://push.example.com',
  clientId: 'client-1',
  clientSecret: 's3cr3t-value',
  flow: 'client_credentials',
};

describe('dispatch (shared by IPC and browser mode, with a transport-test handler table)', () => {
  it('passes valid input, with zod defaults applied, to the handler and returns its value', async () => {
    const t = createTransportTable();
    const r = await dispatch(t.handlers, 'campaigns.query', { profileId: 'p1', accountId: 'acme' });
    expect(r.ok).toBe(true);
    expect(t.calls).toEqual([{ channel: 'campaigns.query', args: { profileId: 'p1', accountId: 'acme', offset: 0, limit: 200 } }]);
  });

  it('refuses input that does not match the schema as invalid_input data, without calling the handler', async () => {
    const t = createTransportTable();
    const r = await dispatch(t.handlers, 'campaigns.query', { profileId: 'p1', accountId: 'acme-42' });
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    if (!r.ok) {
      expect(r.error.message).toContain('accountId');
      expect(r.error.details?.issues).toEqual([{ path: 'accountId', message: 'account id must contain letters only' }]);
    }
    expect(t.calls).toEqual([]);
  });

  it('refuses an unknown channel (including prototype names) without calling anything', async () => {
    const t = createTransportTable();
    for (const name of ['nope', '__proto__', 'constructor', 'toString', 42, null]) {
      const r = await dispatch(t.handlers, name, {});
      expect(r).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    }
    expect(t.calls).toEqual([]);
  });

  it('never echoes input values in a refusal (a secret that fails validation stays in main)', async () => {
    const t = createTransportTable();
    const secret = 'x'.repeat(1001) + 'SECRET-MARKER';
    const r = await dispatch(t.handlers, 'profiles.create', { ...validCreate, clientSecret: secret });
    expect(r.ok).toBe(false);
    expect(JSON.stringify(r)).not.toContain('SECRET-MARKER');
    expect(t.profiles).toHaveLength(0);
  });

  it('strips fields the output schema does not name, so a secret returned by mistake never leaves main', async () => {
    const t = createTransportTable();
    const r = await dispatch(t.handlers, 'profiles.create', validCreate);
    expect(r.ok).toBe(true);
    expect(JSON.stringify(r)).not.toContain('s3cr3t-value');
    if (r.ok) expect(r.value).toMatchObject({ name: 'Acme', clientId: 'client-1', hasSecret: true });
  });

  it('turns a DeskError into its data (code, message, details)', async () => {
    const t = createTransportTable();
    const r = await dispatch(t.handlers, 'profiles.remove', { profileId: 'gone' });
    expect(r).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'That connection no longer exists.', details: { profileId: 'gone' } },
    });
  });

  it('turns any other error into a generic internal error with no internal details, and logs no message text', async () => {
    const t = createTransportTable();
    const logged: string[] = [];
    const r = await dispatch(t.handlers, 'activity.list', {}, { log: (m) => logged.push(m) });
    expect(r).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(JSON.stringify(r)).not.toMatch(/secret-token|disk I\/O|home/);
    expect(logged.join('\n')).toContain('activity.list');
    expect(logged.join('\n')).not.toContain('secret-token-abc123');
  });

  it('reports a handler value outside the output schema as an internal error (contract drift)', async () => {
    const t = createTransportTable();
    t.handlers['app.info'] = () => Promise.resolve({ version: 1 } as never);
    const logged: string[] = [];
    const r = await dispatch(t.handlers, 'app.info', {}, { log: (m) => logged.push(m) });
    expect(r).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(logged.join('\n')).toContain('outside the contract');
  });
});
