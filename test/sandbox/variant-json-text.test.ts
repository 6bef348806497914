// Variant json_text: every JSON answer in another legal text of the same value (RFC 8259):
// indented with CRLF and tabs, or ASCII-only with `\uXXXX` and `\/` escapes, listings streamed too.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { inJsonText, jsonTextRewriter, rewriteJsonText, JSON_TEXTS } from '../../src/sandbox/json-text';
import { call, campaignPayload, playVariants, sandboxPerFile } from '../helpers/sandbox';

let sb: RunningSandbox;
let token: string;
sandboxPerFile((s, t) => ((sb = s), (token = t)));

const NAME = 'Café «été» 🚀 summer/sale';
const LIST = '/core/api/1.0/acmeshoes/campaigns?fetch_level=RAP';

describe('json_text', () => {
  it('ascii: writes every character beyond ASCII and every slash escaped, the value unchanged', async () => {
    const created = await call(sb, 'POST', '/core/api/1.0/acmeshoes/campaigns/', {
      token,
      json: campaignPayload(NAME, { tracking_code: 'utm_source=a/b' }),
    });
    expect(created.status).toBeLessThan(300);
    const plain = await call(sb, 'GET', LIST, { token });
    await playVariants(sb, { json_text: 'ascii' });
    const ascii = await call(sb, 'GET', LIST, { token });
    expect(ascii.text).toMatch(/^[\x20-\x7e]*$/);
    expect(ascii.text).toContain('Caf\\u00E9');
    expect(ascii.text).toContain('\\uD83D\\uDE80');
    expect(ascii.text).toContain('summer\\/sale');
    expect(ascii.body).toEqual(plain.body);
    // The push API and the token endpoint too.
    const tasks = await call(sb, 'GET', '/epsilon/task?tagId=1001', { token });
    expect(tasks.status).toBe(200);
    const token2 = await call(sb, 'POST', '/authentication/oauth/token', {
      form: { client_id: 'demo-client', client_secret: 'demo-secret', grant_type: 'client_credentials' },
    });
    expect(token2.status).toBe(200);
    expect(typeof (token2.body as { access_token: unknown }).access_token).toBe('string');
  });

  it('pretty: indents with CRLF and tabs, the value unchanged, errors too', async () => {
    const plain = await call(sb, 'GET', LIST, { token });
    await playVariants(sb, { json_text: 'pretty' });
    const pretty = await call(sb, 'GET', LIST, { token });
    expect(pretty.text).toContain('{\r\n\t"');
    expect(pretty.body).toEqual(plain.body);
    const err = await call(sb, 'GET', '/epsilon/task', { token });
    expect(err.status).toBe(400);
    expect(err.text).toContain('\r\n');
    expect(err.body).toMatchObject({ httpStatus: 400 });
  });

  it('rewrites a text cut into pieces anywhere as it rewrites it whole, to the same value', () => {
    const value = fc.jsonValue();
    fc.assert(
      fc.property(value, fc.constantFrom(...JSON_TEXTS), fc.array(fc.nat(), { maxLength: 6 }), (v, form, cuts) => {
        const text = JSON.stringify(v);
        const whole = rewriteJsonText(text, form);
        expect(JSON.parse(whole)).toEqual(JSON.parse(text));
        const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
        const rewrite = jsonTextRewriter(form);
        let out = '';
        let from = 0;
        for (const c of [...at, text.length]) {
          out += rewrite(text.slice(from, c));
          from = c;
        }
        expect(out).toBe(whole);
      }),
    );
  });

  it('rewrites a streamed body as it goes and announces the new length', () => {
    const stream = () => ['{"results":[', '{"name":"a/é"}', ',{"name":"b"}', '],"metadata":{"total":2}}'];
    const reply = inJsonText({ status: 200, headers: { 'content-type': 'application/json' }, stream, streamLength: 1 }, 'ascii');
    const body = [...reply.stream!()].join('');
    expect(body).toContain('a\\/\\u00E9');
    expect(reply.streamLength).toBe(Buffer.byteLength(body));
    expect(JSON.parse(body)).toEqual(JSON.parse(stream().join('')));
  });
});
