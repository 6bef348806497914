// Campaign Desk's own lint rules: the layer rules of docs/architecture.md, checked on the file an
// import reaches rather than on how its path is spelled.
//
// Why not no-restricted-imports patterns alone: a pattern matches the text of a specifier, so
// `../main/x` from src/shared slipped past a rule written for `../../main/*`, and patterns see
// neither `import('...')` nor `require('...')` nor `typeof import('...')`. This rule resolves every
// relative specifier (in any of those forms, type-only ones included) to the folder it lands in
// and compares that folder with the table in eslint.config.mjs; bare specifiers (Node builtins,
// Electron, React, Node-only packages) are refused by the place the file runs in.
import { existsSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import tseslint from 'typescript-eslint';

/** Every Node builtin, bare and with `node:` (fs, node:fs, fs/promises, ...). */
const NODE_BUILTINS = new Set(builtinModules.flatMap((m) => (m.startsWith('node:') ? [m] : [m, `node:${m}`])));

export function isNodeBuiltin(spec) {
  // `node:` always names a builtin (node:test and node:sqlite exist only with the prefix).
  return spec.startsWith('node:') || NODE_BUILTINS.has(spec) || NODE_BUILTINS.has(spec.split('/')[0]);
}

/** The package a bare specifier names: `@scope/name` or `name`. */
function packageOf(spec) {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Packages that only work in Node: a window or shared code that imports one breaks at run time. */
const NODE_ONLY_PACKAGES = new Set(['better-sqlite3', 'keytar', 'undici', 'ws', 'electron-updater', 'tsx']);
const REACT_PACKAGES = new Set(['react', 'react-dom', 'zustand']);

/**
 * Where a repository path sits: `main/<folder>`, `main` (straight in src/main), `renderer/<folder>`,
 * `renderer` (its root files), `shared`, `preload`, `sandbox`; null outside src/.
 */
export function placeOf(rel) {
  const parts = rel.split('/');
  if (parts[0] !== 'src' || parts.length < 3) return null;
  const area = parts[1];
  if (area === 'main' || area === 'renderer') return parts.length === 3 ? area : `${area}/${parts[2]}`;
  return area;
}

const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs', '.d.ts'];

/**
 * The place an import lands in. `../store` from src/main/sync names the folder store/ (its index),
 * `../app` from src/renderer/lib the file app.tsx: the disk says which, and a path that exists as
 * neither is taken for a folder (files straight in src/main are refused anyway).
 */
function placeOfTarget(root, target) {
  const parts = target.split('/');
  if (parts[0] !== 'src' || parts.length < 2) return null;
  const area = parts[1];
  if (area !== 'main' && area !== 'renderer') return area;
  if (parts.length === 2) return area;
  if (parts.length > 3) return `${area}/${parts[2]}`;
  const abs = path.join(root, target);
  const isDir = existsSync(abs) && statSync(abs).isDirectory();
  const isFile = !isDir && (existsSync(abs) || SOURCE_EXTENSIONS.some((ext) => existsSync(abs + ext)));
  return isFile ? area : `${area}/${parts[2]}`;
}

/** The places a file in `place` may import from (itself included), from the tables in the config. */
function allowedPlaces(place, { mainLayers, rendererLayers }) {
  if (place.startsWith('main/')) {
    const below = mainLayers[place.slice('main/'.length)];
    return below ? new Set([place, 'shared', ...below.map((f) => `main/${f}`)]) : null;
  }
  if (place === 'renderer') return new Set(['renderer', 'shared', ...rendererLayers.map((f) => `renderer/${f}`)]);
  if (place.startsWith('renderer/')) {
    const i = rendererLayers.indexOf(place.slice('renderer/'.length));
    return i < 0 ? null : new Set([place, 'shared', ...rendererLayers.slice(0, i).map((f) => `renderer/${f}`)]);
  }
  if (place === 'shared') return new Set(['shared']);
  if (place === 'preload' || place === 'sandbox') return new Set([place, 'shared']);
  return null;
}

function describeAllowed(place, options) {
  if (place.startsWith('main/')) {
    const below = options.mainLayers[place.slice(5)];
    return `src/${place} may import only ${below.join(', ') || 'src/shared'} (the layers in eslint.config.mjs MAIN_LAYERS): move the shared part down, or pass it in from app/.`;
  }
  if (place.startsWith('renderer/')) {
    const i = options.rendererLayers.indexOf(place.slice(9));
    const below = options.rendererLayers.slice(0, i);
    return `src/${place} sits below ${options.rendererLayers.slice(i + 1).join(', ')}: it may import only ${below.join(', ') || 'src/shared'} (RENDERER_LAYERS in eslint.config.mjs); pass what it needs in.`;
  }
  if (place === 'renderer') return 'The renderer reaches the rest of the app only through the contract (src/shared and lib/api.ts).';
  if (place === 'shared') return 'src/shared runs everywhere: it imports nothing but src/shared.';
  if (place === 'preload') return 'The preload bridges the contract only: import from src/shared and electron.';
  return 'The sandbox is a service of its own: it imports only src/shared.';
}

/** What a bare specifier may not be in a place; a message, or null when allowed. */
function bareProblem(place, spec, dynamic) {
  const pkg = packageOf(spec);
  const windowOrShared = place === 'shared' || place === 'preload' || place === 'renderer' || place.startsWith('renderer/');
  if (windowOrShared && isNodeBuiltin(spec)) {
    return `'${spec}' is a Node builtin: src/${place} runs ${place === 'shared' ? 'everywhere' : 'in the window'}, without Node (bare or node:, both are refused).`;
  }
  if (windowOrShared && NODE_ONLY_PACKAGES.has(pkg)) return `'${spec}' works only in Node: src/${place} may not import it.`;
  if (pkg === 'electron') {
    if (place === 'main/electron') return null;
    if (place === 'preload') {
      if (dynamic) return 'The sandboxed preload takes Electron with a static import only.';
      return spec === 'electron' || spec === 'electron/renderer'
        ? null
        : `The preload may import 'electron' or 'electron/renderer', not '${spec}'.`;
    }
    return 'Only src/main/electron and src/preload may use Electron.';
  }
  if (REACT_PACKAGES.has(pkg) && !(place === 'renderer' || place.startsWith('renderer/'))) {
    return `React belongs to the window: src/${place} may not import '${spec}'.`;
  }
  return null;
}

/** The string a specifier node holds, or null when it is computed (an expression). */
function literalOf(node) {
  if (!node) return null;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0].value.cooked;
  return null;
}

const layers = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports go down the layers of docs/architecture.md, in every form an import can take.' },
    schema: [
      {
        type: 'object',
        properties: {
          mainLayers: { type: 'object' },
          rendererLayers: { type: 'array', items: { type: 'string' } },
          exceptions: { type: 'object' },
        },
        required: ['mainLayers', 'rendererLayers'],
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const options = context.options[0];
    const root = context.cwd;
    const file = path.relative(root, context.filename).split(path.sep).join('/');
    const place = placeOf(file);
    if (!place) return {};
    const extra = new Set((options.exceptions ?? {})[file] ?? []);

    if (place === 'main') {
      return {
        Program(node) {
          context.report({
            node,
            message: 'Put main-process code in one of the layer folders of src/main (eslint.config.mjs MAIN_LAYERS).',
          });
        },
      };
    }
    const allowed = allowedPlaces(place, options);
    if (!allowed) {
      return {
        Program(node) {
          context.report({
            node,
            message: `src/${place} is in no layer table of eslint.config.mjs: add it to MAIN_LAYERS or RENDERER_LAYERS (and to docs/architecture.md).`,
          });
        },
      };
    }

    const check = (node, specNode, dynamic) => {
      const spec = literalOf(specNode);
      if (spec === null) {
        context.report({ node, message: 'An import whose path is computed cannot be checked against the layers: write the path out.' });
        return;
      }
      if (spec.startsWith('.')) {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)).replace(/\/$/, '');
        const to = placeOfTarget(root, target);
        // Outside src/ (package.json, resources) is not a layer.
        if (to === null) return;
        if (!allowed.has(to) && !extra.has(to))
          context.report({ node, message: `'${spec}' reaches src/${to}. ${describeAllowed(place, options)}` });
        return;
      }
      const problem = bareProblem(place, spec, dynamic);
      if (problem) context.report({ node, message: problem });
    };

    return {
      ImportDeclaration: (node) => check(node, node.source, false),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source, false),
      ExportAllDeclaration: (node) => check(node, node.source, false),
      ImportExpression: (node) => check(node, node.source, true),
      TSImportEqualsDeclaration: (node) =>
        node.moduleReference.type === 'TSExternalModuleReference' && check(node, node.moduleReference.expression, false),
      // `typeof import('../main/x')` is an edge too, if only for the type checker.
      // (typescript-eslint 8.x names its path `source`; older versions `argument`, a literal type.)
      TSImportType: (node) =>
        check(node, node.source ?? (node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument), false),
      CallExpression(node) {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments.length === 1)
          check(node, node.arguments[0], true);
      },
      Program() {
        // A triple-slash reference to Node's types would bring them back into the window's program.
        if (place.startsWith('main/') || place === 'sandbox') return;
        for (const c of context.sourceCode.getAllComments()) {
          if (c.type === 'Line' && /^\/\s*<reference\s+types\s*=\s*["']node["']/.test(c.value)) {
            context.report({ loc: c.loc, message: `src/${place} runs without Node: no reference to Node's types.` });
          }
        }
      },
    };
  },
};

/**
 * Comments that would switch the rules off, refused by a processor rather than a rule. A rule's
 * report can itself be silenced by the comment it is about (`/* eslint-disable *\/` turns every
 * rule off, this one too) and a rule can be configured off inline (`/* eslint desk/layers: off *\/`),
 * but a processor's postprocess runs after ESLint has applied every comment, so what it adds stands.
 * Refused: an eslint-disable that names no rule (a blanket one hides the layer rules with the
 * rest), a disable naming one of the LOCKED rules, and any inline rule configuration (rules are
 * configured in eslint.config.mjs, where a reviewer sees them).
 */
const LOCKED = new Set([
  'desk/layers',
  'no-restricted-syntax',
  'no-eval',
  'no-new-func',
  'no-implied-eval',
  '@typescript-eslint/no-floating-promises',
]);

export function commentProblems(text, filename) {
  let comments;
  try {
    // The same parser the lint uses (typescript-eslint, a direct dependency), without types.
    ({ comments } = tseslint.parser.parseForESLint(text, {
      comment: true,
      loc: true,
      range: true,
      ecmaFeatures: { jsx: /\.[jt]sx$/.test(filename) },
    }).ast);
  } catch {
    return []; // the lint itself reports the parse error
  }
  const problems = [];
  const report = (c, message) =>
    problems.push({
      ruleId: 'desk/comments',
      severity: 2,
      message,
      line: c.loc.start.line,
      column: c.loc.start.column + 1,
      endLine: c.loc.end.line,
      endColumn: c.loc.end.column + 1,
      nodeType: null,
    });
  for (const c of comments) {
    const body = c.value.split(/\s--\s/)[0].trim();
    const disable = /^eslint-disable(-next-line|-line)?(?:\s+([^]*))?$/.exec(body);
    if (disable) {
      const rules = (disable[2] ?? '')
        .split(',')
        .map((r) => r.trim())
        .filter(Boolean);
      if (rules.length === 0)
        report(
          c,
          `A blanket eslint-disable${disable[1] ?? ''} turns off every rule, the layer rules too: name the rule it is for and say why.`,
        );
      for (const r of rules.filter((r) => LOCKED.has(r)))
        report(
          c,
          `${r} keeps a rule of docs/architecture.md and may not be disabled: fix the code (or change the rule in eslint.config.mjs, and the docs with it).`,
        );
    } else if (c.type === 'Block' && /^eslint\s+\S/.test(body)) {
      report(c, 'Rules are configured in eslint.config.mjs, not in a comment.');
    }
  }
  return problems;
}

const texts = new Map();
const comments = {
  meta: { name: 'desk/comments' },
  supportsAutofix: true,
  preprocess(text, filename) {
    texts.set(filename, text);
    return [text];
  },
  postprocess(messageLists, filename) {
    const text = texts.get(filename) ?? '';
    texts.delete(filename);
    return [...messageLists.flat(), ...commentProblems(text, filename)];
  },
};

export default { meta: { name: 'desk' }, rules: { layers }, processors: { comments } };
