import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';

// The main process in layers, lowest first: each folder may import only the folders listed for it
// (and src/shared). What needs Electron lives in electron/ alone; app/ composes the services; the
// two window hosts (electron/, browser-mode/) sit on top. test/scripts/layers.test.ts checks that
// no folders import each other in a circle, across src/.
const MAIN_LAYERS = {
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
const MAIN_FOLDERS = Object.keys(MAIN_LAYERS);

/** Electron itself, for every folder but electron/. */
function electronFor(folder) {
  return folder === 'electron' ? [] : [{ name: 'electron', message: 'Only src/main/electron and src/preload may use Electron.' }];
}

/** Import patterns a file in src/main/<folder> may not use: the folders above or beside it, Electron, the renderer. */
function forbiddenFor(folder) {
  const others = MAIN_FOLDERS.filter((f) => f !== folder && !MAIN_LAYERS[folder].includes(f));
  return [
    {
      group: others.flatMap((f) => [`../${f}`, `../${f}/**`, `../../${f}`, `../../${f}/**`, `../../../${f}`, `../../../${f}/**`]),
      message: `src/main/${folder} may import only ${MAIN_LAYERS[folder].join(', ') || 'src/shared'} (the layers in eslint.config.mjs): move the shared part down, or pass it in from app/.`,
    },
    { group: ['**/renderer/**', 'react', 'react-dom'], message: 'The main process never imports the renderer.' },
    { group: ['**/sandbox/**'], message: 'Only app/demo-sandbox.ts starts the sandbox.' },
  ];
}

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'coverage/**'] },
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
    // CommonJS helpers (preloads for child processes) use require by nature.
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Imports go down: shared code runs everywhere, so it may not reach into Node, Electron or a layer above.
    files: ['src/shared/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['node:*', 'electron', '../../main/*', '../../renderer/*', '../../sandbox/*', 'react'] }],
    },
  },
  {
    files: ['src/renderer/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['node:*', 'electron', '**/main/**', '**/sandbox/**'] }] },
  },
  {
    // The renderer in layers too: lib/ < forms/ < components/ < stores/ < features/. Form models
    // and helpers stay pure, so stores can use them without reaching up into a screen.
    files: ['src/renderer/lib/**', 'src/renderer/forms/**', 'src/renderer/components/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*', 'electron', '**/main/**', '**/sandbox/**'], message: 'The renderer runs in a sandboxed page: it reaches the rest only through the contract.' },
            { group: ['**/stores/**', '**/features/**'], message: 'lib/, forms/ and components/ sit below stores/ and features/: pass what they need in.' },
          ],
        },
      ],
    },
  },
  ...MAIN_FOLDERS.map((folder) => ({
    files: [`src/main/${folder}/**`],
    ignores: folder === 'app' ? ['src/main/app/demo-sandbox.ts'] : [],
    rules: { 'no-restricted-imports': ['error', { paths: electronFor(folder), patterns: forbiddenFor(folder) }] },
  })),
  {
    files: ['src/main/app/demo-sandbox.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: electronFor('app'), patterns: forbiddenFor('app').filter((p) => !p.group.includes('**/sandbox/**')) }] },
  },
  {
    // A file straight in src/main would belong to no layer.
    files: ['src/main/*.ts'],
    rules: { 'no-restricted-syntax': ['error', { selector: 'Program', message: 'Put main-process code in one of the layer folders of src/main (eslint.config.mjs MAIN_LAYERS).' }] },
  },
  {
    // The sandboxed preload can require nothing but electron; it shares only the contract's types.
    files: ['src/preload/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['../main/**', '../renderer/**', '../sandbox/**', 'node:*', 'react'], message: 'The preload bridges the contract only: import from src/shared and electron.' }] }] },
  },
  {
    // The emulator stands apart from the app it emulates a service for.
    files: ['src/sandbox/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/main/**', '**/renderer/**', 'electron', 'react', 'react-dom'], message: 'The sandbox is a service of its own: it imports only src/shared.' }] }] },
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
