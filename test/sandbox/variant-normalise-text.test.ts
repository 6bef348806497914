// The normalise_text variant: a service may store the text it was sent in a normal form (Unicode
// NFC or NFKC, runs of whitespace as one space, trimmed); listings and task lists show that form.
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, nativeCampaign, pushEvent, sandboxPerFile } from '../helpers/sandbox';

let sb: RunningSandbox;
let token: string;
sandboxPerFile((s, t) => ((sb = s), (token = t)));

// "Café" with a combining accent (NFD), a no-break space, a tab and a full-width "Ｓ" (NFKC folds it to S).
const SENT = '  Cafe\u0301\u00a0\u00a0Spring\tsale \uFF33 ';
const play = async (normalise_text: 'nfc' | 'nfkc') =>
  expect((await call(sb, 'PUT', '/_sandbox/variants', { json: { normalise_text } })).status).toBe(200);
const listedNames = async () => {
  const r = await call(sb, 'GET', '/core/api/1.0/oldtimerltd/campaigns?fetch_level=RAP', { token });
  return (r.body as { results: { name: string; branding_text: string }[] }).results;
};

describe('normalise_text', () => {
  it('is off by default: the name is stored byte for byte', async () => {
    await call(sb, 'POST', '/core/api/1.0/oldtimerltd/campaigns/', { token, json: nativeCampaign({ name: SENT }) });
    expect((await listedNames()).map((c) => c.name)).toContain(SENT);
  });

  it('"nfc" stores name and branding text composed, whitespace collapsed and trimmed', async () => {
    await play('nfc');
    const r = await call(sb, 'POST', '/core/api/1.0/oldtimerltd/campaigns/', {
      token,
      json: nativeCampaign({ name: SENT, branding_text: ' Old\u3000 Timer ' }),
    });
    expect(r.status).toBe(200);
    expect((r.body as { name: string }).name).toBe('Caf\u00e9 Spring sale \uFF33');
    const listed = (await listedNames()).find((c) => c.name.startsWith('Caf'));
    expect(listed).toMatchObject({ name: 'Caf\u00e9 Spring sale \uFF33', branding_text: 'Old Timer' });
  });

  it('"nfkc" also folds compatibility forms', async () => {
    await play('nfkc');
    await call(sb, 'POST', '/core/api/1.0/oldtimerltd/campaigns/', { token, json: nativeCampaign({ name: SENT }) });
    expect((await listedNames()).map((c) => c.name)).toContain('Caf\u00e9 Spring sale S');
  });

  it('a push task keeps its title, performer and description in the normal form', async () => {
    await play('nfc');
    const ev = pushEvent({ title: ' Evening\u00a0 digest ', performer: 'e\u0301ditor ', itemDescription: 'Two\n\nlines' });
    expect((await call(sb, 'POST', '/epsilon/push', { token, json: { pushEvents: [ev] } })).status).toBe(200);
    const tasks = (await call(sb, 'GET', '/epsilon/task?tagId=1001', { token })).body as {
      title: string;
      performer: string;
      itemDescription?: string;
    }[];
    expect(tasks.at(-1)).toMatchObject({ title: 'Evening digest', performer: '\u00e9ditor', itemDescription: 'Two lines' });
  });
});
