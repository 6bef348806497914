// A sandbox with a state file (the app's built-in demo): what was written is there after a restart,
// ids go on from the last one (never handed out twice), and a damaged file is set aside, not
// trusted and not overwritten in place. Real servers over HTTP, a real file in a temporary folder.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index';
import { call, nativeCampaign, testFixtures, tokenFor } from '../helpers/sandbox';

const dirs: string[] = [];
const running: RunningSandbox[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function folder(): string {
  const d = mkdtempSync(join(tmpdir(), 'sandbox-state-'));
  dirs.push(d);
  return d;
}

async function start(statePath: string, log?: (m: string) => void): Promise<RunningSandbox> {
  const sb = await startSandbox({ fixtures: testFixtures(), clock: 'manual', statePath, ...(log ? { log } : {}) });
  running.push(sb);
  return sb;
}

async function create(sb: RunningSandbox, name: string): Promise<number> {
  const r = await call(sb, 'POST', '/core/api/1.0/oldtimerltd/campaigns/', { token: await tokenFor(sb), json: nativeCampaign({ name }) });
  expect(r.status).toBe(200);
  return (r.body as { id: number }).id;
}

async function names(sb: RunningSandbox): Promise<string[]> {
  const r = await call(sb, 'GET', '/_sandbox/state/campaigns?account=oldtimerltd');
  return (r.body as { campaigns: { name: string }[] }).campaigns.map((c) => c.name);
}

describe('sandbox state file', () => {
  it('keeps created campaigns across a restart, and the next id is above the last one', async () => {
    const path = join(folder(), 'demo-sandbox.json');
    const first = await start(path);
    const before = await create(first, 'Made before');
    await first.close();
    running.splice(running.indexOf(first), 1);
    expect(existsSync(path)).toBe(true);

    const second = await start(path);
    expect(await names(second)).toContain('Made before');
    const after = await create(second, 'Made after');
    expect(after).toBeGreaterThan(before);
  });

  it('starts from the fixtures without a file, and a reset is kept as the new start', async () => {
    const path = join(folder(), 'demo-sandbox.json');
    const first = await start(path);
    const fixtureNames = await names(first);
    await create(first, 'Gone after reset');
    await call(first, 'POST', '/_sandbox/reset');
    await first.close();
    running.splice(running.indexOf(first), 1);
    const second = await start(path);
    expect(await names(second)).toEqual(fixtureNames);
  });

  it('sets an unreadable file aside and starts from the fixtures', async () => {
    const dir = folder();
    const path = join(dir, 'demo-sandbox.json');
    writeFileSync(path, '{"format":1,"campaigns":"half a file');
    const said: string[] = [];
    const sb = await start(path, (m) => said.push(m));
    const plain = await startSandbox({ fixtures: testFixtures(), clock: 'manual' });
    running.push(plain);
    expect(await names(sb)).toEqual(await names(plain));
    expect(said).toEqual([expect.stringMatching(/could not be read \(not JSON/)]);
    expect(readdirSync(dir).filter((f) => f.startsWith('demo-sandbox.json.unreadable-'))).toHaveLength(1);
    expect(existsSync(path)).toBe(false);
  });
});
