// The json_text variant: the same JSON value written in another legal text (RFC 8259), as services
// built on other JSON libraries write it. `pretty`: indented, with CRLF line ends and tabs (all four
// whitespace characters JSON allows between tokens). `ascii`: every character beyond ASCII as a
// \uXXXX escape (a pair of them beyond the BMP) and every `/` as `\/` (both legal escapes, and the
// default of several server libraries). The rewrite walks the text token by token, piece by piece,
// so a streamed listing is rewritten as it goes and a string's contents are never taken for syntax.

import type { Reply } from './http';

export const JSON_TEXTS = ['pretty', 'ascii'] as const;
export type JsonText = (typeof JSON_TEXTS)[number];

const LINE = '\r\n';
const INDENT = '\t';

/**
 * A rewriter for one answer: call it with each piece of the compact JSON text in order; it returns
 * that piece in `form`. It keeps its place (inside a string, after a backslash, the depth) between
 * calls, so a piece may end anywhere.
 */
export function jsonTextRewriter(form: JsonText): (piece: string) => string {
  let inString = false;
  let escaped = false;
  let depth = 0;
  return (piece) => {
    let out = '';
    for (let i = 0; i < piece.length; i++) {
      const ch = piece[i];
      if (inString) {
        if (escaped) escaped = false;
        else if (ch === '\\') escaped = true;
        else if (ch === '"') inString = false;
        else if (form === 'ascii') {
          const code = ch.charCodeAt(0);
          if (ch === '/') {
            out += '\\/';
            continue;
          }
          if (code > 0x7e) {
            // Upper-case hex: a reader must take both cases (RFC 8259 7).
            out += `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
            continue;
          }
        }
        out += ch;
        continue;
      }
      if (ch === '"') inString = true;
      if (form === 'pretty') {
        if (ch === '{' || ch === '[') {
          depth++;
          out += ch + LINE + INDENT.repeat(depth);
          continue;
        }
        if (ch === '}' || ch === ']') {
          depth--;
          out += LINE + INDENT.repeat(depth) + ch;
          continue;
        }
        if (ch === ',') {
          out += ',' + LINE + INDENT.repeat(depth);
          continue;
        }
        if (ch === ':') {
          out += ' : ';
          continue;
        }
      }
      out += ch;
    }
    return out;
  };
}

/** `text` (one whole JSON text) in `form`. */
export function rewriteJsonText(text: string, form: JsonText): string {
  return jsonTextRewriter(form)(text);
}

const isJson = (reply: Reply): boolean => {
  const type = reply.headers?.['content-type'];
  return typeof type === 'string' && /^application\/([a-z.+-]*\+)?json\b/i.test(type);
};

/** `reply` with its JSON body (whole or streamed) in `form`; other replies as they are. */
export function inJsonText(reply: Reply, form: JsonText): Reply {
  if (!isJson(reply)) return reply;
  if (reply.stream !== undefined) {
    const source = reply.stream;
    function* pieces(): Generator<string> {
      const rewrite = jsonTextRewriter(form);
      for (const piece of source()) yield rewrite(piece);
    }
    let streamLength: number | undefined;
    if (reply.streamLength !== undefined) {
      streamLength = 0;
      for (const p of pieces()) streamLength += Buffer.byteLength(p);
    }
    // A cut (cut_body) stays where it was counted: inside the longer body, so still a cut.
    return { ...reply, stream: pieces, streamLength };
  }
  if (reply.body === undefined || reply.body.length === 0) return reply;
  const text = typeof reply.body === 'string' ? reply.body : reply.body.toString('utf8');
  return { ...reply, body: rewriteJsonText(text, form) };
}
