// Serving the built renderer from disk, shared by the app:// protocol and browser mode. A request
// path is mapped into the root directory and refused if it would leave it (.., encoded slashes,
// NUL bytes, symlinks pointing outside).
import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

function inside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * The file a URL path names inside `root`, or null when the path is malformed or escapes it.
 * "/" is index.html. The check is lexical; `readStaticFile` also checks the real path.
 */
export function resolveStaticPath(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\') || !decoded.startsWith('/')) return null;
  const segments = decoded.split('/').filter((s) => s !== '');
  if (segments.some((s) => s === '..' || s === '.')) return null;
  const rel = segments.length === 0 ? 'index.html' : segments.join(sep);
  const base = resolve(root);
  const full = resolve(join(base, rel));
  return inside(base, full) ? full : null;
}

export interface StaticFile {
  body: Buffer;
  contentType: string;
}

export async function readStaticFile(root: string, urlPath: string): Promise<StaticFile | null> {
  const file = resolveStaticPath(root, urlPath);
  if (file === null) return null;
  try {
    const [realRoot, realFile] = await Promise.all([realpath(root), realpath(file)]);
    if (!inside(realRoot, realFile) || !(await stat(realFile)).isFile()) return null;
    return { body: await readFile(realFile), contentType: contentTypeOf(realFile) };
  } catch {
    return null;
  }
}
