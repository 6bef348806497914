// Tests of the lint configuration itself (eslint.config.mjs, scripts/eslint/desk-rules.mjs): each
// probe is a source text placed at a virtual path in src/ and linted with the project's config, as
// `npm run lint` would lint that file. Every edge docs/architecture.md forbids must be refused by
// the rule meant for it (not by a parse error), and the edges it allows must pass, so the rules
// cannot be vacuous. A rule that stops biting makes one of these fail.
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');

// Probes are files no tsconfig lists, so the type-aware block (no-floating-promises) would fail to
// parse them; they are let into a default program built from tsconfig.node.json instead. Only the
// typed probes pay for the type checker (a program takes ~20 s to build on a busy machine).
const PROBE_GLOBS = [
  'src/*/probe.ts',
  'src/*/*/probe.ts',
  'src/*/*/*/probe.ts',
  'src/*/probe.tsx',
  'src/*/*/probe.tsx',
  'src/*/*/*/probe.tsx',
];
const typed = new ESLint({
  cwd: ROOT,
  overrideConfig: {
    files: ['src/**'],
    languageOptions: { parserOptions: { projectService: { allowDefaultProject: PROBE_GLOBS, defaultProject: 'tsconfig.node.json' } } },
  },
});
const untyped = new ESLint({
  cwd: ROOT,
  overrideConfig: {
    files: ['src/**'],
    languageOptions: { parserOptions: { projectService: false } },
    rules: { '@typescript-eslint/no-floating-promises': 'off' },
  },
});

interface Problem {
  ruleId: string | null;
  message: string;
  fatal?: boolean;
}

async function lint(file: string, code: string, withTypes = false): Promise<Problem[]> {
  const [result] = await (withTypes ? typed : untyped).lintText(code, { filePath: join(ROOT, file) });
  return (result?.messages ?? []).filter((m) => m.severity === 2);
}

interface Refused {
  /** What the probe crosses, as the docs say it. */
  name: string;
  file: string;
  code: string;
  rule: string;
  message?: RegExp;
  typed?: boolean;
}

const LAYERS = 'desk/layers';
const SYNTAX = 'no-restricted-syntax';
const COMMENTS = 'desk/comments';

// The forbidden edges, written by hand from docs/architecture.md.
const REFUSED: Refused[] = [
  // src/main: each folder imports only the ones below it.
  {
    name: 'store reaches up into sync',
    file: 'src/main/store/probe.ts',
    code: "import '../sync/refresh';\n",
    rule: LAYERS,
    message: /src\/main\/store may import only clock/,
  },
  { name: 'service reaches sideways into store', file: 'src/main/service/probe.ts', code: "import '../store';\n", rule: LAYERS },
  {
    name: 'app reaches up into the Electron shell',
    file: 'src/main/app/handlers/probe.ts',
    code: "import '../../electron/shell';\n",
    rule: LAYERS,
  },
  { name: 'sync reaches up into app', file: 'src/main/sync/probe.ts', code: "import '../app/context';\n", rule: LAYERS },
  { name: 'clock reaches sideways into events', file: 'src/main/clock/probe.ts', code: "import '../events/event-hub';\n", rule: LAYERS },
  { name: 'ratelimit reaches up into service', file: 'src/main/ratelimit/probe.ts', code: "import '../service/errors';\n", rule: LAYERS },
  {
    name: 'secrets reaches up into connections',
    file: 'src/main/secrets/probe.ts',
    code: "import '../connections/connections';\n",
    rule: LAYERS,
  },
  { name: 'connections reaches up into sync', file: 'src/main/connections/probe.ts', code: "import '../sync/refresh';\n", rule: LAYERS },
  {
    name: 'browser mode reaches into the Electron shell',
    file: 'src/main/browser-mode/probe.ts',
    code: "import '../electron/shell';\n",
    rule: LAYERS,
  },
  {
    name: 'the Electron shell reaches into browser mode',
    file: 'src/main/electron/probe.ts',
    code: "import '../browser-mode/start';\n",
    rule: LAYERS,
  },
  {
    name: 'a nested folder reaches up, three levels spelled out',
    file: 'src/main/store/cache-writer/probe.ts',
    code: "import '../../service/errors';\n",
    rule: LAYERS,
  },
  {
    name: 'an upward import through import()',
    file: 'src/main/store/probe.ts',
    code: "export const load = () => import('../sync/refresh');\n",
    rule: LAYERS,
  },
  { name: 'an upward re-export', file: 'src/main/store/probe.ts', code: "export * from '../sync/refresh';\n", rule: LAYERS },
  {
    name: 'an upward type-only import',
    file: 'src/main/store/probe.ts',
    code: "import type { DeskContext } from '../app/context';\nexport type X = DeskContext;\n",
    rule: LAYERS,
  },
  {
    name: 'an upward typeof import()',
    file: 'src/main/store/probe.ts',
    code: "export type R = typeof import('../sync/refresh');\n",
    rule: LAYERS,
  },
  {
    name: 'an upward require()',
    file: 'src/main/store/probe.ts',
    code: "export const r: unknown = require('../sync/refresh');\n",
    rule: LAYERS,
  },
  { name: 'main imports the renderer', file: 'src/main/app/probe.ts', code: "import '../../renderer/lib/api';\n", rule: LAYERS },
  { name: 'main imports the preload', file: 'src/main/store/probe.ts', code: "import '../../preload/index';\n", rule: LAYERS },
  {
    name: 'main imports the sandbox (outside app/demo-sandbox.ts)',
    file: 'src/main/sync/probe.ts',
    code: "import '../../sandbox/server';\n",
    rule: LAYERS,
  },
  { name: 'another app file imports the sandbox', file: 'src/main/app/probe.ts', code: "import '../../sandbox/server';\n", rule: LAYERS },
  { name: 'main imports React', file: 'src/main/app/probe.ts', code: "import 'react';\n", rule: LAYERS },
  {
    name: 'a file straight in src/main belongs to no layer',
    file: 'src/main/probe.ts',
    code: 'export const x = 1;\n',
    rule: LAYERS,
    message: /layer folders/,
  },
  {
    name: 'a folder of src/main in no layer table',
    file: 'src/main/ipc/probe.ts',
    code: 'export const x = 1;\n',
    rule: LAYERS,
    message: /MAIN_LAYERS/,
  },
  {
    name: 'a computed import path, which no rule could check',
    file: 'src/main/store/probe.ts',
    code: "const name = '../sync/refresh';\nexport const load = () => import(name);\n",
    rule: LAYERS,
  },

  // Electron only in src/main/electron and the preload; electron/main and import('electron') too.
  {
    name: 'electron in store',
    file: 'src/main/store/probe.ts',
    code: "import 'electron';\n",
    rule: LAYERS,
    message: /Only src\/main\/electron/,
  },
  {
    name: 'electron/main in app',
    file: 'src/main/app/probe.ts',
    code: "import { app } from 'electron/main';\nexport { app };\n",
    rule: LAYERS,
  },
  {
    name: "import('electron') in sync",
    file: 'src/main/sync/probe.ts',
    code: "export const load = () => import('electron');\n",
    rule: LAYERS,
  },
  {
    name: "require('electron') in app",
    file: 'src/main/app/probe.ts',
    code: "export const e: unknown = require('electron');\n",
    rule: LAYERS,
  },
  { name: 'electron in shared', file: 'src/shared/probe.ts', code: "import 'electron';\n", rule: LAYERS },
  { name: 'electron in the renderer', file: 'src/renderer/lib/probe.ts', code: "import 'electron';\n", rule: LAYERS },
  { name: 'electron in the sandbox', file: 'src/sandbox/probe.ts', code: "import 'electron';\n", rule: LAYERS },
  {
    name: 'electron/main in the preload',
    file: 'src/preload/probe.ts',
    code: "import { app } from 'electron/main';\nexport { app };\n",
    rule: LAYERS,
  },
  {
    name: "import('electron') in the preload",
    file: 'src/preload/probe.ts',
    code: "export const load = () => import('electron');\n",
    rule: LAYERS,
  },

  // Raw IPC only in its wrappers.
  {
    name: 'ipcMain in another file of src/main/electron',
    file: 'src/main/electron/probe.ts',
    code: "import { ipcMain } from 'electron';\nipcMain.handle('x', () => 1);\n",
    rule: SYNTAX,
    message: /ipcMain is used only in/,
  },
  {
    name: 'ipcMain through the namespace, in updates/',
    file: 'src/main/electron/updates/probe.ts',
    code: "import * as electron from 'electron';\nelectron.ipcMain.on('x', () => {});\n",
    rule: SYNTAX,
  },
  {
    name: "electron['ipcMain'] spelled as a string",
    file: 'src/main/electron/probe.ts',
    code: "import * as electron from 'electron';\nexport const m = electron['ipcMain'];\n",
    rule: SYNTAX,
  },
  {
    name: 'ipcMain in the preload',
    file: 'src/preload/probe.ts',
    code: "import { ipcMain } from 'electron';\nexport { ipcMain };\n",
    rule: SYNTAX,
  },
  {
    name: 'ipcRenderer in the main process',
    file: 'src/main/electron/probe.ts',
    code: "import { ipcRenderer } from 'electron';\nexport { ipcRenderer };\n",
    rule: SYNTAX,
  },

  // src/shared runs everywhere: nothing above it, no Node, no Electron, no React.
  { name: 'a file straight in src/shared imports ../main', file: 'src/shared/probe.ts', code: "import '../main/store';\n", rule: LAYERS },
  {
    name: 'shared/domain imports ../../main',
    file: 'src/shared/domain/probe.ts',
    code: "import '../../main/store/connection';\n",
    rule: LAYERS,
  },
  { name: 'shared imports the renderer', file: 'src/shared/probe.ts', code: "import '../renderer/lib/api';\n", rule: LAYERS },
  { name: 'shared imports the sandbox', file: 'src/shared/ipc/probe.ts', code: "import '../../sandbox/server';\n", rule: LAYERS },
  { name: 'shared imports the preload', file: 'src/shared/probe.ts', code: "import '../preload/index';\n", rule: LAYERS },
  {
    name: 'bare fs in shared',
    file: 'src/shared/probe.ts',
    code: "import { readFileSync } from 'fs';\nexport { readFileSync };\n",
    rule: LAYERS,
    message: /Node builtin/,
  },
  { name: 'node:fs in shared', file: 'src/shared/probe.ts', code: "import 'node:fs';\n", rule: LAYERS },
  {
    name: 'bare crypto in shared/ipc',
    file: 'src/shared/ipc/probe.ts',
    code: "import { createHash } from 'crypto';\nexport { createHash };\n",
    rule: LAYERS,
  },
  { name: 'fs/promises in shared', file: 'src/shared/domain/probe.ts', code: "import 'fs/promises';\n", rule: LAYERS },
  {
    name: "import fs = require('fs') in shared",
    file: 'src/shared/probe.ts',
    code: "import fs = require('fs');\nexport const read = fs.readFileSync;\n",
    rule: LAYERS,
  },
  {
    name: 'a re-export of main from shared',
    file: 'src/shared/ipc/probe.ts',
    code: "export { openStore } from '../../main/store';\n",
    rule: LAYERS,
  },
  { name: 'React in shared', file: 'src/shared/probe.ts', code: "import 'react';\n", rule: LAYERS },
  { name: 'a Node-only package (undici) in shared', file: 'src/shared/probe.ts', code: "import 'undici';\n", rule: LAYERS },

  // The renderer: DOM only, its own folders downward, the rest through the contract.
  { name: 'bare fs in the renderer', file: 'src/renderer/lib/probe.ts', code: "import 'fs';\n", rule: LAYERS },
  {
    name: 'node:fs/promises in a screen',
    file: 'src/renderer/features/drafts/probe.tsx',
    code: "import { readFile } from 'node:fs/promises';\nexport { readFile };\n",
    rule: LAYERS,
  },
  { name: 'bare path in a store', file: 'src/renderer/stores/probe.ts', code: "import 'path';\n", rule: LAYERS },
  {
    name: 'require of child_process in the renderer',
    file: 'src/renderer/lib/probe.ts',
    code: "export const cp: unknown = require('child_process');\n",
    rule: LAYERS,
  },
  { name: 'the renderer imports main', file: 'src/renderer/probe.ts', code: "import '../main/store';\n", rule: LAYERS },
  {
    name: 'a screen imports main',
    file: 'src/renderer/features/drafts/probe.ts',
    code: "import '../../../main/app/create-core';\n",
    rule: LAYERS,
  },
  { name: 'the renderer imports the sandbox', file: 'src/renderer/lib/probe.ts', code: "import '../../sandbox/server';\n", rule: LAYERS },
  { name: 'the renderer imports a Node-only package', file: 'src/renderer/lib/probe.ts', code: "import 'better-sqlite3';\n", rule: LAYERS },
  {
    name: "a reference to Node's types in the renderer",
    file: 'src/renderer/lib/probe.ts',
    code: '/// <reference types="node" />\nexport const x = 1;\n',
    rule: LAYERS,
  },
  {
    name: 'lib reaches up into stores',
    file: 'src/renderer/lib/probe.ts',
    code: "import '../stores/drafts-store';\n",
    rule: LAYERS,
    message: /sits below/,
  },
  { name: 'lib reaches up into forms', file: 'src/renderer/lib/probe.ts', code: "import '../forms/campaign-form';\n", rule: LAYERS },
  { name: 'lib reaches up to the root app', file: 'src/renderer/lib/probe.ts', code: "import '../app';\n", rule: LAYERS },
  { name: 'forms reach up into components', file: 'src/renderer/forms/probe.ts', code: "import '../components/dialog';\n", rule: LAYERS },
  {
    name: 'forms reach up into a screen',
    file: 'src/renderer/forms/probe.ts',
    code: "import '../features/drafts/campaign-editor';\n",
    rule: LAYERS,
  },
  {
    name: 'components reach up into stores',
    file: 'src/renderer/components/probe.ts',
    code: "import '../stores/drafts-store';\n",
    rule: LAYERS,
  },
  {
    name: 'a store reaches up into a screen',
    file: 'src/renderer/stores/probe.ts',
    code: "import '../features/drafts/campaign-editor';\n",
    rule: LAYERS,
  },

  // The preload bridges the contract: src/shared and electron only.
  { name: 'the preload imports main', file: 'src/preload/probe.ts', code: "import '../main/store';\n", rule: LAYERS },
  { name: 'the preload imports the renderer', file: 'src/preload/probe.ts', code: "import '../renderer/lib/api';\n", rule: LAYERS },
  { name: 'bare fs in the preload', file: 'src/preload/probe.ts', code: "import 'fs';\n", rule: LAYERS },
  { name: 'node:path in the preload', file: 'src/preload/probe.ts', code: "import 'node:path';\n", rule: LAYERS },
  { name: 'React in the preload', file: 'src/preload/probe.ts', code: "import 'react';\n", rule: LAYERS },

  // The sandbox is a service of its own.
  { name: 'the sandbox imports main', file: 'src/sandbox/probe.ts', code: "import '../main/store';\n", rule: LAYERS },
  { name: 'the sandbox imports the renderer', file: 'src/sandbox/probe.ts', code: "import '../renderer/lib/api';\n", rule: LAYERS },
  { name: 'the sandbox imports React', file: 'src/sandbox/probe.ts', code: "import 'react';\n", rule: LAYERS },

  // No code from strings.
  {
    name: 'a worker run from a string',
    file: 'src/main/store/probe.ts',
    code: "import { Worker } from 'node:worker_threads';\nexport const w = new Worker('postMessage(1)', { eval: true });\n",
    rule: SYNTAX,
    message: /real module/,
  },
  {
    name: 'a worker run from a string, through the namespace',
    file: 'src/main/sync/probe.ts',
    code: "import * as wt from 'node:worker_threads';\nexport const w = new wt.Worker('1', { eval: true });\n",
    rule: SYNTAX,
  },
  {
    name: 'a window worker from a Blob of source text',
    file: 'src/renderer/lib/probe.ts',
    code: "export const w = new Worker(URL.createObjectURL(new Blob(['postMessage(1)'])));\n",
    rule: SYNTAX,
  },
  {
    name: 'a worker run from a string in a test helper',
    file: 'test/helpers/probe.ts',
    code: "import { Worker } from 'node:worker_threads';\nexport const w = new Worker('1', { eval: true });\n",
    rule: SYNTAX,
  },
  { name: 'new Function', file: 'src/main/store/probe.ts', code: "export const f = new Function('return 1');\n", rule: 'no-new-func' },
  { name: 'eval', file: 'src/renderer/lib/probe.ts', code: "export const v: unknown = eval('1');\n", rule: 'no-eval' },

  // A promise nobody awaits.
  {
    name: 'a floating promise in main',
    file: 'src/main/sync/probe.ts',
    code: 'async function f(): Promise<void> {}\nf();\n',
    rule: '@typescript-eslint/no-floating-promises',
    typed: true,
  },
  {
    name: 'a floating .then() in a store',
    file: 'src/renderer/stores/probe.ts',
    code: 'export function g(p: Promise<number>): void {\n  p.then((n) => n + 1);\n}\n',
    rule: '@typescript-eslint/no-floating-promises',
    typed: true,
  },

  // Comments that would switch the rules off: a blanket disable in front of a forbidden import, a
  // disable naming a layer rule, a rule configured in a comment.
  {
    name: 'a blanket disable over a forbidden import in shared',
    file: 'src/shared/probe.ts',
    code: "/* eslint-disable */\nimport '../main/store';\n",
    rule: COMMENTS,
    message: /blanket eslint-disable/,
  },
  {
    name: 'a blanket disable-next-line over bare fs in the renderer',
    file: 'src/renderer/lib/probe.ts',
    code: "// eslint-disable-next-line\nimport 'fs';\n",
    rule: COMMENTS,
    message: /blanket/,
  },
  {
    name: 'a blanket disable-line on an upward import',
    file: 'src/main/store/probe.ts',
    code: "import '../sync/refresh'; // eslint-disable-line\n",
    rule: COMMENTS,
    message: /blanket/,
  },
  {
    name: 'a blanket disable with a reason but no rule',
    file: 'src/preload/probe.ts',
    code: "/* eslint-disable -- generated */\nimport 'fs';\n",
    rule: COMMENTS,
    message: /blanket/,
  },
  {
    name: 'a blanket disable in a test file',
    file: 'test/helpers/probe.ts',
    code: '/* eslint-disable */\nexport const x = 1;\n',
    rule: COMMENTS,
    message: /blanket/,
  },
  {
    name: 'a disable naming the layer rule over a forbidden import',
    file: 'src/shared/probe.ts',
    code: "// eslint-disable-next-line desk/layers -- needed here\nimport '../main/store';\n",
    rule: COMMENTS,
    message: /may not be disabled/,
  },
  {
    name: 'a disable naming the ipcMain rule',
    file: 'src/main/electron/probe.ts',
    code: "/* eslint-disable no-restricted-syntax -- a second registrar */\nimport { ipcMain } from 'electron';\nexport { ipcMain };\n",
    rule: COMMENTS,
    message: /may not be disabled/,
  },
  {
    name: 'an inline config turning the layer rule off',
    file: 'src/renderer/lib/probe.ts',
    code: '/* eslint desk/layers: "off" */\nimport \'fs\';\n',
    rule: COMMENTS,
    message: /configured in eslint.config.mjs/,
  },
  {
    name: 'a disable left with nothing to silence',
    file: 'src/main/store/probe.ts',
    code: '// eslint-disable-next-line no-control-regex -- no longer needed\nexport const r = /a/;\n',
    rule: 'unused-disable',
  },
];

// Allowed edges: each must lint clean, or the rules above could be refusing everything.
const ALLOWED: { name: string; file: string; code: string; typed?: boolean }[] = [
  {
    name: 'sync imports store, service and shared',
    file: 'src/main/sync/probe.ts',
    code: "import '../store';\nimport '../service';\nimport '../../shared/errors';\n",
  },
  {
    name: 'a handler imports sync (two levels up, one layer down)',
    file: 'src/main/app/handlers/probe.ts',
    code: "import '../../sync/refresh';\nimport '../context';\n",
  },
  {
    name: 'store files import each other and their subfolders',
    file: 'src/main/store/cache-writer/probe.ts',
    code: "import '../connection';\nimport './protocol';\n",
  },
  {
    name: 'the Electron shell imports electron, electron/main, import(electron)',
    file: 'src/main/electron/probe.ts',
    code: "import { app } from 'electron';\nimport { BrowserWindow } from 'electron/main';\nexport { app, BrowserWindow };\nexport const load = () => import('electron');\n",
  },
  {
    name: 'ipc-register.ts names ipcMain',
    file: 'src/main/electron/ipc-register.ts',
    code: "import type { IpcMain } from 'electron';\nexport function f(ipcMain: IpcMain): void {\n  ipcMain.removeHandler('x');\n}\n",
  },
  { name: 'app/demo-sandbox.ts starts the sandbox', file: 'src/main/app/demo-sandbox.ts', code: "import '../../sandbox/server';\n" },
  {
    name: 'main uses Node, bare or node:, and Node packages',
    file: 'src/main/store/probe.ts',
    code: "import 'node:fs';\nimport 'path';\nimport 'better-sqlite3';\n",
  },
  {
    name: 'the preload imports electron (ipcRenderer) and shared',
    file: 'src/preload/probe.ts',
    code: "import { contextBridge, ipcRenderer } from 'electron';\nimport '../shared/ipc/wire';\nexport { contextBridge, ipcRenderer };\n",
  },
  {
    name: 'shared imports zod and shared',
    file: 'src/shared/domain/probe.ts',
    code: "import { z } from 'zod';\nimport '../errors';\nimport './account';\nexport const s = z.string();\n",
  },
  {
    name: 'a store imports forms, lib and shared',
    file: 'src/renderer/stores/probe.ts',
    code: "import '../forms/campaign-form';\nimport '../lib/api';\nimport '../../shared/errors';\nimport 'zustand';\n",
  },
  {
    name: 'a screen imports stores, components and React',
    file: 'src/renderer/features/drafts/probe.tsx',
    code: "import '../../stores/drafts-store';\nimport '../../components/dialog';\nimport 'react';\n",
  },
  {
    name: 'the root app imports a screen',
    file: 'src/renderer/probe.tsx',
    code: "import './features/drafts/campaign-editor';\nimport './app';\n",
  },
  { name: 'the sandbox uses Node and shared', file: 'src/sandbox/probe.ts', code: "import 'node:http';\nimport '../shared/errors';\n" },
  {
    name: 'a worker from a module file',
    file: 'src/main/store/probe.ts',
    code: "import { Worker } from 'node:worker_threads';\nexport const w = new Worker(new URL('./w.js', import.meta.url), { workerData: 1 });\n",
  },
  {
    name: 'a disable that names its rule and says why',
    file: 'src/main/store/probe.ts',
    code: '// eslint-disable-next-line no-control-regex -- control characters are what it strips\nexport const r = /\\x00/;\n',
  },
  {
    name: 'an awaited promise and one marked void',
    file: 'src/main/sync/probe.ts',
    code: 'async function f(): Promise<void> {}\nexport async function g(): Promise<void> {\n  await f();\n  void f();\n}\n',
    typed: true,
  },
];

describe('lint refuses every forbidden edge of docs/architecture.md', { timeout: 180_000 }, () => {
  it('has at least 46 probes', () => {
    expect(REFUSED.length).toBeGreaterThanOrEqual(46);
  });

  it.each(REFUSED)('refuses: $name', async ({ file, code, rule, message, typed: withTypes }) => {
    const problems = await lint(file, code, withTypes);
    // A parse error would "refuse" anything; the probe must be refused by its own rule.
    expect(problems.filter((p) => p.fatal)).toEqual([]);
    const mine = problems.filter((p) =>
      rule === 'unused-disable' ? p.ruleId === null && /Unused eslint-disable/.test(p.message) : p.ruleId === rule,
    );
    expect(
      mine.map((p) => p.message),
      JSON.stringify(problems),
    ).not.toEqual([]);
    if (message) expect(mine.map((p) => p.message).join('\n')).toMatch(message);
  });

  it.each(ALLOWED)('allows: $name', async ({ file, code, typed: withTypes }) => {
    expect(await lint(file, code, withTypes)).toEqual([]);
  });
});

describe('every pair of src/main layers, from the table', { timeout: 120_000 }, () => {
  let layers: Record<string, string[]>;
  beforeAll(async () => {
    ({ MAIN_LAYERS: layers } = (await import(pathToFileURL(join(ROOT, 'eslint.config.mjs')).href)) as {
      MAIN_LAYERS: Record<string, string[]>;
    });
  });

  it('refuses each folder not listed below a folder, and allows each listed one', async () => {
    const folders = Object.keys(layers);
    const wrong: string[] = [];
    for (const from of folders) {
      for (const to of folders.filter((f) => f !== from)) {
        const problems = await lint(`src/main/${from}/probe.ts`, `import '../${to}/probe-target';\n`);
        const refused = problems.some((p) => p.ruleId === LAYERS);
        if (refused !== !layers[from]!.includes(to)) wrong.push(`${from} -> ${to}: ${refused ? 'refused' : 'allowed'}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('names every folder of src/main (a new folder must be placed in a layer)', async () => {
    const { readdirSync } = await import('node:fs');
    const dirs = readdirSync(join(ROOT, 'src/main'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    expect(dirs).toEqual(Object.keys(layers).sort());
  });
});
