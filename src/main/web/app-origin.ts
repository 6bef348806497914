// Where the app's own pages live. In production the renderer is served from a custom privileged
// scheme (a real origin, unlike file://); in development from electron-vite's dev server.
export const APP_SCHEME = 'app';
export const APP_HOST = 'desk';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_START_URL = `${APP_ORIGIN}/index.html`;

/** A predicate for "this URL is one of the app's pages": same origin as the app, nothing else. */
export function createAppUrlCheck(devServerUrl?: string): (url: string) => boolean {
  const allowed = new Set<string>([APP_ORIGIN]);
  if (devServerUrl) allowed.add(new URL(devServerUrl).origin);
  return (url: string) => {
    try {
      const u = new URL(url);
      // A custom scheme has origin "null" in the WHATWG parser; compare scheme and host instead.
      const origin = u.protocol === `${APP_SCHEME}:` ? `${APP_SCHEME}://${u.host}` : u.origin;
      return allowed.has(origin) && u.username === '' && u.password === '';
    } catch {
      return false;
    }
  };
}
