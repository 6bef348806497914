// The HTML of the authorization server's sign-in page (spec 4.3). Every value that came from the
// request is escaped; the password is never written back into the page.
import { escapeHtml } from './http';

export interface AuthorizeFormValues {
  clientId: string;
  redirectUri: string;
  responseType: string;
  /** Only rendered when the request carried a state, so that only a given state is passed back. */
  state?: string;
  username?: string;
  error?: string;
}

const STYLE = `
body{font-family:system-ui,sans-serif;background:#f3f4f6;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center}
main{background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 4px #0002;width:22rem}
h1{font-size:1.25rem;margin:0 0 .5rem}p{color:#4b5563;font-size:.9rem}
label{display:block;margin:.75rem 0 .25rem;font-size:.9rem}
input[type=text],input[type=password]{width:100%;box-sizing:border-box;padding:.5rem;border:1px solid #d1d5db;border-radius:4px}
.row{display:flex;gap:.5rem;margin-top:1.25rem}button{flex:1;padding:.6rem;border-radius:4px;border:1px solid #1d4ed8;background:#2563eb;color:#fff}
button.secondary{background:#fff;color:#1f2937;border-color:#d1d5db}.error{color:#b91c1c;font-weight:600}`;

function hidden(name: string, value: string): string {
  return `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
}

export function authorizeFormHtml(v: AuthorizeFormValues): string {
  const error = v.error === undefined ? '' : `<p class="error" role="alert">${escapeHtml(v.error)}</p>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in - Campaign Desk sandbox</title><style>${STYLE}</style></head>
<body><main>
<h1>Sign in to authorize</h1>
<p>The application <strong>${escapeHtml(v.clientId)}</strong> asks to access your accounts.</p>
${error}
<form method="post" action="">
${hidden('client_id', v.clientId)}
${hidden('redirect_uri', v.redirectUri)}
${hidden('response_type', v.responseType)}
${v.state === undefined ? '' : hidden('state', v.state)}
<label for="username">User name</label>
<input type="text" id="username" name="username" autocomplete="username" value="${escapeHtml(v.username ?? '')}" required>
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required>
<div class="row">
<button type="submit" name="decision" value="allow">Sign in and authorize</button>
<button type="submit" name="decision" value="deny" class="secondary" formnovalidate>Deny</button>
</div>
</form>
</main></body></html>`;
}

export function authorizeErrorHtml(message: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Authorization error - Campaign Desk sandbox</title><style>${STYLE}</style></head>
<body><main><h1>Authorization error</h1><p class="error" role="alert">${escapeHtml(message)}</p>
<p>The sign-in cannot continue, and you were not sent back to the application.</p></main></body></html>`;
}
