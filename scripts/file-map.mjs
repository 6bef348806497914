// Writes the "Every file" section of docs/architecture.md: each source file of src/ with the first
// sentence of its header comment, folder by folder. `--check` writes nothing and exits 1 when the
// section differs from what the files say (test/scripts/file-map.test.ts runs it), so the map
// cannot drift from the folders: a new file without a header comment, or one moved, shows here.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const DOC = join(ROOT, 'docs/architecture.md');
const BEGIN = '<!-- file-map:begin (scripts/file-map.mjs writes this section) -->';
const END = '<!-- file-map:end -->';
const SOURCE = /\.(ts|tsx|mjs|cjs)$/;

function sourceFiles(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return sourceFiles(path);
      return SOURCE.test(name) && !name.endsWith('.d.ts') ? [path] : [];
    });
}

/** The header comment's first sentence (its leading `//` lines, joined), or null when it has none. */
export function headline(text) {
  const lines = [];
  for (const line of text.split('\n')) {
    const m = /^\s*\/\/\s?(.*)$/.exec(line);
    if (!m) break;
    if (m[1].startsWith('@ts-') || m[1].startsWith('eslint-')) continue;
    lines.push(m[1].trim());
  }
  const joined = lines.join(' ').replace(/\s+/g, ' ').trim();
  if (joined === '') return null;
  // Up to the first full stop followed by a space (or the end), at most 200 characters.
  const stop = /\.(\s|$)/.exec(joined);
  const first = stop ? joined.slice(0, stop.index + 1) : joined;
  return first.length > 200 ? `${first.slice(0, 197)}...` : first;
}

export function fileMap() {
  const byFolder = new Map();
  for (const path of sourceFiles(join(ROOT, 'src'))) {
    const rel = relative(ROOT, path).split('\\').join('/');
    const folder = rel.slice(0, rel.lastIndexOf('/'));
    if (!byFolder.has(folder)) byFolder.set(folder, []);
    byFolder.get(folder).push({ name: rel.slice(folder.length + 1), line: headline(readFileSync(path, 'utf8')) });
  }
  const out = [
    BEGIN,
    '## Every file',
    '',
    'Each source file with the first sentence of its header comment (generated: `node scripts/file-map.mjs`).',
    '',
  ];
  for (const [folder, files] of byFolder) {
    out.push(`### ${folder}/`, '');
    for (const f of files) out.push(`- \`${f.name}\`: ${f.line ?? '(no header comment)'}`);
    out.push('');
  }
  out.push(END);
  return out.join('\n');
}

export function withFileMap(doc) {
  const map = fileMap();
  const a = doc.indexOf(BEGIN);
  const b = doc.indexOf(END);
  if (a === -1 || b === -1) return `${doc.trimEnd()}\n\n${map}\n`;
  return doc.slice(0, a) + map + doc.slice(b + END.length);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const doc = readFileSync(DOC, 'utf8');
  const next = withFileMap(doc);
  if (process.argv.includes('--check')) {
    if (next !== doc) {
      console.error('docs/architecture.md: the "Every file" section does not match src/; run `node scripts/file-map.mjs`.');
      process.exit(1);
    }
  } else if (next !== doc) {
    writeFileSync(DOC, next);
  }
}
