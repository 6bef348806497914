// The fixtures file is read in chunks, its campaigns cut out one element at a time (fixtures.ts,
// FixturesScan): whatever the chunk boundaries, the result is what parsing the whole text gives, and
// a bad campaign is named by its place in the file.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixturesSchema, loadFixturesFile, SandboxFixturesError, type Fixtures } from '../../src/sandbox/index';

const EXAMPLE = join(__dirname, '../../docs/sandbox-fixtures.example.json');
const dir = mkdtempSync(join(tmpdir(), 'sandbox-fixtures-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const example = (): Fixtures => JSON.parse(readFileSync(EXAMPLE, 'utf8')) as Fixtures;
let n = 0;
function file(text: string): string {
  const f = join(dir, `f${n++}.json`);
  writeFileSync(f, text);
  return f;
}

function refusal(path: string, chunkBytes?: number): SandboxFixturesError {
  try {
    loadFixturesFile(path, { chunkBytes });
  } catch (e) {
    expect(e).toBeInstanceOf(SandboxFixturesError);
    return e as SandboxFixturesError;
  }
  throw new Error('expected the fixtures to be refused');
}

describe('fixtures read as a stream', () => {
  it('gives what the whole text parses to, at any chunk size, with campaigns that hold brackets, quotes and escapes in their text', () => {
    const f = example();
    const tricky = { ...f.campaigns![0], id: 424242, name: 'Sale ] }, "quoted" \\ back\\slash [{', branding_text: 'ünïcødé ✓ 日本' };
    f.campaigns = [...f.campaigns!, tricky];
    // Keys in another order than the schema's, campaigns before the accounts they name.
    const { campaigns, ...rest } = f;
    const text = JSON.stringify({ campaigns, ...rest }, null, 1);
    const path = file(text);
    const expected = fixturesSchema.parse(JSON.parse(text));
    for (const chunkBytes of [1, 2, 3, 7, 64, 1 << 20]) {
      const loaded = loadFixturesFile(path, { chunkBytes });
      expect(loaded).toEqual(expected);
    }
    expect(loadFixturesFile(path).campaigns!.at(-1)!.name).toBe(tricky.name);
  });

  it('reads an empty campaigns list and a file without one', () => {
    const f = example();
    expect(loadFixturesFile(file(JSON.stringify({ ...f, campaigns: [] }))).campaigns).toEqual([]);
    const { campaigns: _dropped, ...without } = f;
    expect(loadFixturesFile(file(JSON.stringify(without))).campaigns).toBeUndefined();
  });

  it('names a bad campaign by its index and field, in a stream cut into tiny chunks', () => {
    const f = example();
    (f.campaigns![1] as Record<string, unknown>).cpc = 'cheap';
    (f.campaigns![1] as Record<string, unknown>).colour = 'red';
    const err = refusal(file(JSON.stringify(f)), 5);
    expect(err.problems.map((p) => p.jsonPath)).toEqual(expect.arrayContaining(['campaigns[1].cpc', 'campaigns[1].colour']));
  });

  it('refuses text that is not JSON, inside the campaigns too, saying where when the file is small', () => {
    const f = example();
    const good = JSON.stringify(f);
    for (const bad of [
      good.replace('"campaigns":[', '"campaigns":[,'),
      good.replace(/\}\],"tasks"/, '},],"tasks"'),
      good.slice(0, -1),
      `${good}x`,
      `\ufeff${good}`,
    ]) {
      const err = refusal(file(bad), 3);
      expect(err.jsonPath).toBe('(root)');
      expect(err.problem).toMatch(/^not valid JSON: /);
    }
  });
});
