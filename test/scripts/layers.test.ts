// The shape of the code, checked: no two folders of src/ import each other, directly or around a
// circle. (The layer rules themselves are lint's, probed in test/scripts/layer-lint.test.ts.)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');

/** The folder a file counts for: src/main/<layer>, src/renderer/features/<feature>, src/<area>/<folder>. */
function folderOf(file: string): string {
  const parts = file.split('/');
  if (parts[1] === 'renderer' && parts[2] === 'features') return parts.slice(0, 4).join('/');
  return parts.length > 3 ? parts.slice(0, 3).join('/') : dirname(file);
}

const IMPORT = /(?:^|\s)(?:import|export)\b[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|(?:^|\s)import\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/gm;

function folderGraph(): Map<string, Set<string>> {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'src'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => /\.(ts|tsx|mts)$/.test(f));
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(join(ROOT, file), 'utf8');
    } catch {
      continue; // deleted in the working tree
    }
    const from = folderOf(file);
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2];
      if (!spec) continue;
      const to = folderOf(relative(ROOT, normalize(join(ROOT, dirname(file), spec))).split('\\').join('/'));
      if (to === from || !to.startsWith('src/')) continue;
      if (!graph.has(from)) graph.set(from, new Set());
      graph.get(from)!.add(to);
    }
  }
  return graph;
}

/** Groups of folders that reach each other (Tarjan's strongly connected components), larger than one. */
function cycles(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return found;
}

describe('folders of src/', () => {
  it('finds a circle when there is one (the check itself)', () => {
    const g = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a'])],
    ]);
    expect(cycles(g)).toEqual([['a', 'b', 'c']]);
  });

  it('import each other in no circle', () => {
    const graph = folderGraph();
    expect(graph.size).toBeGreaterThan(10);
    const found = cycles(graph).map((group) =>
      group.map((f) => `${f} -> ${[...(graph.get(f) ?? [])].filter((t) => group.includes(t)).join(', ')}`).join('; '),
    );
    expect(found, 'folders that import each other (move the shared part down a layer)').toEqual([]);
  });
});
