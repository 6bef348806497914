import type { IpcMainInvokeEvent, WebContents } from 'electron';
import { describe, expect, it } from 'vitest';
import { APP_START_URL, createAppUrlCheck } from '../../../src/main/web/app-origin';
import { createSenderCheck } from '../../../src/main/electron/ipc-sender';

// Plain objects shaped like Electron's webContents and frames (Electron cannot run here).
function frame(opts: { url: string; processId?: number; routingId?: number; parent?: object | null }) {
  return { url: opts.url, processId: opts.processId ?? 1, routingId: opts.routingId ?? 1, parent: opts.parent ?? null };
}
function contents(mainFrame: ReturnType<typeof frame>, destroyed = false) {
  return { mainFrame, isDestroyed: () => destroyed } as unknown as WebContents;
}
function event(sender: WebContents, senderFrame: ReturnType<typeof frame> | null) {
  return { sender, senderFrame } as unknown as IpcMainInvokeEvent;
}

describe('IPC sender check', () => {
  const mainFrame = frame({ url: APP_START_URL });
  const app = contents(mainFrame);
  const check = createSenderCheck({ getAppContents: () => app, isAppUrl: createAppUrlCheck() });

  it('trusts the app window main frame on the app origin', () => {
    expect(check(event(app, frame({ url: 'app://desk/index.html#/campaigns' })))).toBe(true);
  });

  it('refuses another webContents', () => {
    const other = contents(frame({ url: APP_START_URL }));
    expect(check(event(other, frame({ url: APP_START_URL })))).toBe(false);
  });

  it('refuses a subframe of the app window, even on the app origin', () => {
    expect(check(event(app, frame({ url: APP_START_URL, routingId: 7, parent: mainFrame })))).toBe(false);
    expect(check(event(app, frame({ url: APP_START_URL, routingId: 7 })))).toBe(false);
  });

  it('refuses the main frame once it shows a foreign page', () => {
    for (const url of ['https://evil.example/', 'file:///etc/passwd', 'app://other/index.html', 'http://desk/', 'app://user:pw@desk/']) {
      expect(check(event(app, frame({ url })))).toBe(false);
    }
  });

  it('refuses a frame that is gone, a destroyed window, or no window', () => {
    expect(check(event(app, null))).toBe(false);
    const dead = contents(mainFrame, true);
    expect(createSenderCheck({ getAppContents: () => dead, isAppUrl: createAppUrlCheck() })(event(dead, mainFrame))).toBe(false);
    expect(createSenderCheck({ getAppContents: () => null, isAppUrl: createAppUrlCheck() })(event(app, mainFrame))).toBe(false);
  });

  it('trusts the dev server origin only when one is configured', () => {
    const dev = frame({ url: 'http://localhost:5173/' });
    const devApp = contents(dev);
    expect(
      createSenderCheck({ getAppContents: () => devApp, isAppUrl: createAppUrlCheck('http://localhost:5173') })(event(devApp, dev)),
    ).toBe(true);
    expect(createSenderCheck({ getAppContents: () => devApp, isAppUrl: createAppUrlCheck() })(event(devApp, dev))).toBe(false);
  });
});
