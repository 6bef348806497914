// The browser-mode servers listen on the loopback address only, and a port already taken is an
// error the caller sees (not a server that silently never answers).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../../../src/main/browser-mode/listen';

const close = (s: ReturnType<typeof createServer>) => new Promise<void>((resolve) => s.close(() => resolve()));

describe('listenOnLoopback', () => {
  it('listens on 127.0.0.1 on a free port and says which', async () => {
    const server = createServer((_req, res) => res.end('ok'));
    const port = await listenOnLoopback(server);
    expect(server.address()).toMatchObject({ address: '127.0.0.1', port });
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('ok');
    await close(server);
  });

  it('rejects when the port is taken', async () => {
    const first = createServer();
    const port = await listenOnLoopback(first);
    const second = createServer();
    await expect(listenOnLoopback(second, port)).rejects.toMatchObject({ code: 'EADDRINUSE' });
    expect((first.address() as AddressInfo).port).toBe(port);
    await close(first);
  });
});
