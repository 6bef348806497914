// The Content-Security-Policy of every page of the app, in Electron and in browser mode. React sets
// styles through the CSSOM and Vite emits a linked stylesheet, so no 'unsafe-inline' is needed.
export interface CspOptions {
  /** Extra connect-src sources (browser mode adds its own ws:// origin for the event socket). */
  connectSrc?: readonly string[];
  /** Development only: Vite's dev server injects inline scripts and style tags (HMR, React refresh). */
  devServer?: boolean;
}

export function buildCsp(opts: CspOptions = {}): string {
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', opts.devServer ? ["'self'", "'unsafe-inline'"] : ["'self'"]],
    ['style-src', opts.devServer ? ["'self'", "'unsafe-inline'"] : ["'self'"]],
    // Images come from the app itself or as data: URLs: the push preview shows only images the main
    // process fetched and checked (src/main/images), so the window never loads a third-party address.
    ['img-src', ["'self'", 'data:']],
    ['font-src', ["'self'"]],
    ['connect-src', ["'self'", ...(opts.connectSrc ?? [])]],
    ['object-src', ["'none'"]],
    ['frame-src', ["'none'"]],
    ['worker-src', ["'none'"]],
    ['frame-ancestors', ["'none'"]],
    ['base-uri', ["'none'"]],
    ['form-action', ["'none'"]],
  ];
  return directives.map(([name, sources]) => `${name} ${sources.join(' ')}`).join('; ');
}

/** The policy of the packaged app (app:// protocol). */
export const APP_CSP = buildCsp();

/** Headers every static response of the app carries, whichever server sends it. */
export function staticSecurityHeaders(csp: string): Record<string, string> {
  return {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'x-frame-options': 'DENY',
  };
}
