// The chaos variant: `{chaos: true, seed: N}` is expanded into concrete variants picked from the
// seed, shown by GET /_sandbox/variants and played over HTTP; the same seed picks the same service,
// variants given beside chaos win, and a reset or PUT expands it again.
import { afterEach, describe, expect, it } from 'vitest';
import { CHAOS_TABLE, chaosPicks } from '../../src/sandbox/chaos';
import { startSandbox, variantsSchema, type RunningSandbox, type Variants } from '../../src/sandbox/index';
import { call, testFixtures, tokenFor } from '../helpers/sandbox';

const started: RunningSandbox[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()));
});

async function start(variants: Variants): Promise<RunningSandbox> {
  const sb = await startSandbox({ clock: 'manual', fixtures: testFixtures(), variants });
  started.push(sb);
  return sb;
}

const shown = async (sb: RunningSandbox) => ((await call(sb, 'GET', '/_sandbox/variants')).body as { variants: Variants }).variants;

/** The first seed from 1 on whose picks pass `wanted`. */
/**
 * A seed whose picks have `wanted`, among seeds whose answers a plain request reads as they come:
 * no redirect or content coding to follow, no passing 5xx, no rows filtered after paging or
 * answers cut short (the client's own suites play those).
 */
function seedWhere(wanted: (v: Variants) => boolean): number {
  const plain = (v: Variants) =>
    v.redirect === undefined &&
    v.compress === undefined &&
    v.transient_5xx === undefined &&
    !v.short_pages &&
    v.cut_body === undefined &&
    v.churn === undefined;
  for (let seed = 1; seed < 10_000; seed++) if (plain(chaosPicks(seed)) && wanted(chaosPicks(seed))) return seed;
  throw new Error('no seed below 10,000 picks that');
}

describe('chaos', () => {
  it('plays concrete variants picked from the seed, shows them, and picks the same for the same seed', async () => {
    const a = await start({ chaos: true, seed: 42 });
    const b = await start({ chaos: true, seed: 42 });
    const c = await start({ chaos: true, seed: 43 });
    const picked = await shown(a);
    expect(picked).toMatchObject({ chaos: true, seed: 42 });
    // More than the two variants asked for: the seed chose the rest, and each is a legal value.
    expect(Object.keys(picked).length).toBeGreaterThan(2);
    expect(variantsSchema.parse(picked)).toEqual(picked);
    expect(await shown(b)).toEqual(picked);
    expect(await shown(c)).not.toEqual(picked);
  });

  it('plays what it shows: a seed that caps pages and answers problem+json does both over HTTP', async () => {
    const seed = seedWhere((v) => v.problem_json === true && v.page_size_cap !== undefined && v.page_size_cap <= 3);
    const sb = await start({ chaos: true, seed });
    const cap = (await shown(sb)).page_size_cap!;
    const token = await tokenFor(sb);
    const list = await call(sb, 'GET', '/core/api/1.0/acmeshoes/campaigns?fetch_level=RAP', { token });
    expect(list.status).toBe(200);
    const body = list.body as { results: unknown[]; metadata: { total: number } };
    expect(body.results.length).toBe(Math.min(cap, body.metadata.total));
    const refused = await call(sb, 'GET', '/core/api/1.0/strangers/campaigns', { token });
    expect(refused.status).toBe(403);
    expect(refused.headers['content-type']).toContain('application/problem+json');
  });

  it('lets a variant given beside chaos win over the pick, and expands again on PUT and on reset', async () => {
    const seed = seedWhere((v) => v.problem_json === true && v.page_size_cap !== undefined);
    const sb = await start({ chaos: true, seed, problem_json: false, page_size_cap: 7 });
    const atStart = await shown(sb);
    expect(atStart).toMatchObject({ chaos: true, seed, problem_json: false, page_size_cap: 7 });
    const token = await tokenFor(sb);
    const refused = await call(sb, 'GET', '/core/api/1.0/strangers/campaigns', { token });
    expect(refused.headers['content-type']).not.toContain('problem+json');

    const put = await call(sb, 'PUT', '/_sandbox/variants', { json: { chaos: true, seed: seed + 1 } });
    expect(put.status).toBe(200);
    const other = (put.body as { variants: Variants }).variants;
    expect(other).toEqual({ ...chaosPicks(seed + 1), chaos: true, seed: seed + 1 });
    expect(await shown(sb)).toEqual(other);

    await call(sb, 'POST', '/_sandbox/reset');
    expect(await shown(sb)).toEqual(atStart);
  });

  it('without a seed plays seed 1, and says so', async () => {
    const sb = await start({ chaos: true });
    expect(await shown(sb)).toEqual({ ...chaosPicks(1), chaos: true, seed: 1 });
  });

  it('over many seeds, plays every variant of its table both ways, always with a legal value', () => {
    const on = new Set<string>();
    const off = new Set<string>();
    for (let seed = 1; seed <= 200; seed++) {
      const v = chaosPicks(seed);
      expect(variantsSchema.safeParse(v).success, `seed ${seed}: ${JSON.stringify(v)}`).toBe(true);
      for (const name of Object.keys(CHAOS_TABLE)) (name in v ? on : off).add(name);
    }
    expect([...on].sort()).toEqual(Object.keys(CHAOS_TABLE).sort());
    expect([...off].sort()).toEqual(Object.keys(CHAOS_TABLE).sort());
  });
});
