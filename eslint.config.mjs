import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

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
    files: ['src/main/**', 'src/sandbox/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/renderer/**', 'react', 'react-dom'] }] },
  },
);
