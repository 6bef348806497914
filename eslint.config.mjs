import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import desk from './scripts/eslint/desk-rules.mjs';

// The layer rules of docs/architecture.md, enforced by `desk/layers` (scripts/eslint/desk-rules.mjs),
// which resolves every import (static, export-from, import(), require, `typeof import()`) to the
// folder it reaches. Probes of every forbidden edge: test/scripts/layer-lint.test.ts.
//
// The main process in layers, lowest first: each folder may import only the folders listed for it
// (and src/shared). What needs Electron lives in electron/ alone; app/ composes the services; the
// two window hosts (electron/, browser-mode/) sit on top. test/scripts/layers.test.ts checks that
// no files or folders import each other in a circle, across src/.
export const MAIN_LAYERS = {
  clock: [],
  events: [],
  web: [],
  images: [],
  ratelimit: ['clock'],
  store: ['clock'],
  service: ['ratelimit', 'clock'],
  secrets: ['store'],
  connections: ['service', 'store', 'secrets', 'events', 'ratelimit', 'clock'],
  sync: ['connections', 'service', 'store', 'secrets', 'events', 'ratelimit', 'clock', 'images'],
  app: ['sync', 'connections', 'service', 'store', 'secrets', 'events', 'ratelimit', 'clock', 'images', 'web'],
  'browser-mode': ['app', 'web', 'clock'],
  electron: ['app', 'web', 'ratelimit', 'clock'],
};

// The renderer's folders, lowest first: each imports only those before it (and src/shared); the
// root files (app.tsx, main.tsx) sit on top. Form models and helpers stay pure, so stores can use
// them without reaching up into a screen.
export const RENDERER_LAYERS = ['lib', 'forms', 'components', 'stores', 'features'];

// Code is never run from strings (see no-eval below); a worker is a real module too.
const NO_WORKER_FROM_STRING = [
  {
    selector: "NewExpression[callee.name='Worker'] Property[key.name='eval'], NewExpression[callee.property.name='Worker'] Property[key.name='eval']",
    message: 'A worker runs a real module (an electron-vite entry), never code from a string: no { eval: true }.',
  },
  {
    selector: "NewExpression[callee.name='Worker'] CallExpression[callee.property.name='createObjectURL'], NewExpression[callee.property.name='Worker'] CallExpression[callee.property.name='createObjectURL']",
    message: 'A worker runs a real module, never code from a string: no Blob URL of source text.',
  },
];

// Raw IPC stays in two wrappers (as in GitHub Desktop): ipcMain only where the channels are
// registered behind the sender check (electron/ipc-register.ts) and where the shell hands Electron's
// ipcMain to it (electron/shell.ts); ipcRenderer only in the preload.
const IPC_MAIN_FILES = ['src/main/electron/ipc-register.ts', 'src/main/electron/shell.ts'];
const rawIpc = (name, where) => [
  { selector: `Identifier[name='${name}']`, message: `${name} is used only in ${where}: go through the contract (src/shared/ipc/contract.ts).` },
  { selector: `MemberExpression[computed=true] > Literal.property[value='${name}']`, message: `${name} is used only in ${where}.` },
];
const NO_IPC_MAIN = rawIpc('ipcMain', IPC_MAIN_FILES.join(' and '));
const NO_IPC_RENDERER = rawIpc('ipcRenderer', 'src/preload');
export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'coverage/**'] },
  // An eslint-disable that no longer silences anything is an error too, so old ones do not pile up.
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
      // No code is ever run from strings: a minifier, coverage or bytecode protection breaks it, and
      // it hides what runs from review (workers are real modules).
      'no-eval': 'error',
      'no-new-func': 'error',
      'no-implied-eval': 'error',
    },
  },
  {
    // Every eslint-disable names its rule, the layer rules cannot be disabled, and no rule is
    // configured in a comment: checked by a processor, which no comment can silence
    // (scripts/eslint/desk-rules.mjs, `comments`).
    files: ['**/*.{ts,tsx,mts,cts,js,mjs,cjs}'],
    plugins: { desk },
    processor: 'desk/comments',
  },
  {
    // CommonJS helpers (preloads for child processes) use require by nature.
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Imports go down, in every folder of src/ (the tables above; the map in docs/architecture.md).
    // Only app/demo-sandbox.ts starts the sandbox, so only it may import src/sandbox.
    files: ['src/**'],
    rules: {
      'desk/layers': ['error', { mainLayers: MAIN_LAYERS, rendererLayers: RENDERER_LAYERS, exceptions: { 'src/main/app/demo-sandbox.ts': ['sandbox'] } }],
      'no-restricted-syntax': ['error', ...NO_WORKER_FROM_STRING, ...NO_IPC_MAIN, ...NO_IPC_RENDERER],
    },
  },
  {
    files: IPC_MAIN_FILES,
    rules: { 'no-restricted-syntax': ['error', ...NO_WORKER_FROM_STRING, ...NO_IPC_RENDERER] },
  },
  {
    files: ['src/preload/**'],
    rules: { 'no-restricted-syntax': ['error', ...NO_WORKER_FROM_STRING, ...NO_IPC_MAIN] },
  },
  {
    // Workers from strings are refused in tests, benchmarks and scripts as well.
    files: ['test/**', 'bench/**', 'scripts/**'],
    rules: { 'no-restricted-syntax': ['error', ...NO_WORKER_FROM_STRING] },
  },
  {
    // A promise nobody awaits loses its failure (an unhandled rejection) and its order. This needs
    // the type checker, so it runs on src/ only: typed linting roughly doubles lint's CPU time
    // (about 18 s of CPU to 45 s on this tree), and tests await what they start by habit.
    // src/preload/index.d.ts is in no program (TypeScript prefers the index.ts beside it).
    files: ['src/**/*.ts', 'src/**/*.tsx', 'src/**/*.mts'],
    ignores: ['**/*.d.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-floating-promises': 'error' },
  },
  {
    files: ['src/renderer/**/*.tsx', 'src/renderer/**/*.ts'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      ...jsxA11y.flatConfigs.recommended.rules,
      // `role` is also a prop of our own components (an image's role: icon, thumbnail).
      'jsx-a11y/aria-role': ['error', { ignoreNonDOM: true }],
      // A keydown listener on a dialog, form or group is how its keyboard works (Escape closes, Tab
      // stays inside, arrows move): delegation, not a click target pretending to be a control.
      'jsx-a11y/no-noninteractive-element-interactions': ['error', { handlers: ['onClick', 'onMouseDown', 'onMouseUp', 'onKeyPress'] }],
    },
  },
);
