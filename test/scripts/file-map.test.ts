// docs/architecture.md's map matches the folders, file for file (issue 28): its "Every file"
// section is what scripts/file-map.mjs makes of src/ now (every file, each with the first sentence
// of its header comment), and every folder of src/main and src/renderer is named in the drawn map.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const DOC = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');

describe("architecture.md's map", () => {
  it('lists every source file as it is now, each with its header comment', () => {
    const run = spawnSync(process.execPath, [join(ROOT, 'scripts/file-map.mjs'), '--check'], { cwd: ROOT, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(DOC).not.toContain('(no header comment)');
  });

  it('the check fails when a file is not in it', async () => {
    const { withFileMap } = (await import(join(ROOT, 'scripts/file-map.mjs'))) as { withFileMap(doc: string): string };
    const dropped = DOC.replace(/^- `lookups\.ts`: .*\n/m, '');
    expect(dropped).not.toBe(DOC);
    expect(withFileMap(dropped)).toBe(DOC);
  });

  it('names every folder of src/main and of src/renderer in the drawn map', () => {
    const drawn = DOC.slice(DOC.indexOf('## The map'), DOC.indexOf('### Where each behaviour lives'));
    for (const area of ['src/main', 'src/renderer']) {
      for (const folder of readdirSync(join(ROOT, area)).filter((f) => statSync(join(ROOT, area, f)).isDirectory())) {
        expect(drawn, `${area}/${folder} in the map`).toMatch(new RegExp(`(^|\\s)${folder}/`, 'm'));
      }
    }
  });
});
