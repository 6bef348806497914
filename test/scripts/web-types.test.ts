// The window's TypeScript program (tsconfig.web.json) has no Node: a renderer file that uses
// `process` or `fs` must fail to type-check, as it would fail in the sandboxed page. Node's types
// once reached this program through a dependency's type package (@types/papaparse references them),
// so the check is on the program's files too, not only on its "types" setting.
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');

// Probe files at virtual paths in the renderer, served from memory to the compiler.
const PROBES: Record<string, string> = {
  'src/renderer/lib/probe-process.ts': 'export const mode = process.env.NODE_ENV;\n',
  'src/renderer/lib/probe-fs.ts': "import { readFileSync } from 'fs';\nexport const read = readFileSync;\n",
  'src/renderer/lib/probe-node-fs.ts': "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
  'src/renderer/features/shell/probe-buffer.ts': "export const b = Buffer.from('x');\n",
  'src/renderer/stores/probe-require.ts': "export const m: unknown = require('./x');\n",
  // What the window may use: the DOM, and papaparse through the window's own declaration.
  'src/renderer/lib/probe-allowed.ts':
    "import Papa from 'papaparse';\nexport const text = Papa.unparse([['a']]) + document.title + new URL('x:y').protocol;\n",
};
const path = (file: string) => join(ROOT, file);

let program: ts.Program;

beforeAll(() => {
  const configPath = path('tsconfig.web.json');
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, ROOT, undefined, configPath);
  const virtual = new Map(Object.entries(PROBES).map(([file, text]) => [path(file), text]));
  const host = ts.createCompilerHost(parsed.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, language, ...rest) => {
    const text = virtual.get(fileName);
    return text === undefined ? getSourceFile(fileName, language, ...rest) : ts.createSourceFile(fileName, text, language);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (fileName) => virtual.has(fileName) || fileExists(fileName);
  program = ts.createProgram({ rootNames: [...parsed.fileNames, ...virtual.keys()], options: parsed.options, host });
}, 180_000);

function errors(file: string): number[] {
  const source = program.getSourceFile(path(file));
  if (!source) throw new Error(`${file} is not in the program`);
  return ts.getPreEmitDiagnostics(program, source).map((d) => d.code);
}

describe("the window's program (tsconfig.web.json) without Node", { timeout: 120_000 }, () => {
  it("holds none of Node's types, from any package", () => {
    const node = program.getSourceFiles().filter((f) => /[\\/]@types[\\/]node[\\/]/.test(f.fileName));
    expect(node.map((f) => f.fileName)).toEqual([]);
  });

  it('refuses process, Buffer and require in a renderer file', () => {
    // 2580 / 2591: "Cannot find name 'process'. Do you need to install type definitions for node?"
    // (2591 adds "and add 'node' to the types field", when "types" is set, as it is here).
    const nodeNameMissing = (codes: number[]) => codes.some((c) => c === 2580 || c === 2591);
    expect(errors('src/renderer/lib/probe-process.ts')).toSatisfy(nodeNameMissing);
    expect(errors('src/renderer/features/shell/probe-buffer.ts')).toSatisfy(nodeNameMissing);
    expect(errors('src/renderer/stores/probe-require.ts')).toSatisfy(nodeNameMissing);
  });

  it('refuses fs and node:fs in a renderer file', () => {
    // 2307: "Cannot find module 'fs' or its corresponding type declarations."
    expect(errors('src/renderer/lib/probe-fs.ts')).toContain(2307);
    expect(errors('src/renderer/lib/probe-node-fs.ts')).toContain(2307);
  });

  it('still checks what the window may use (the DOM, papaparse) clean', () => {
    expect(errors('src/renderer/lib/probe-allowed.ts')).toEqual([]);
  });
});
