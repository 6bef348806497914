// A push answer has no specified meaning (DECISIONS client 4), so the app shows it as it came. A
// service that echoes the request (headers included) would put our bearer token on screen and in
// the activity log: the token is removed from the answer before anyone sees it. Tokens come from
// the sandbox; the push host is a real HTTP server on 127.0.0.1 that echoes the Authorization
// header it was sent, the way such a service could.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REDACTED } from '../../../src/main/service/errors';
import type { ServiceClient } from '../../../src/main/service/service-client';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/index';
import { clientFor } from '../../helpers/service-client';
import { SECRET, testFixtures } from '../../helpers/fixtures';

let sb: RunningSandbox;
let echo: Server;
let client: ServiceClient;
const seen: string[] = [];
let escapeEverything = false;

beforeAll(async () => {
  sb = await startSandbox({ fixtures: testFixtures({ secret: SECRET }) });
  echo = createServer((req, res) => {
    const auth = req.headers.authorization ?? '';
    seen.push(auth);
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (escapeEverything) {
        // The same JSON string with every character written as \uXXXX: legal JSON (RFC 8259 7).
        const escaped = [...`accepted; you sent ${auth}`].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
        res.end(`"${escaped}"`);
      } else res.end(JSON.stringify(`accepted; you sent "${auth}" and ${encodeURIComponent(auth)}`));
    });
  });
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  client = clientFor(sb, { pushUrl: `http://127.0.0.1:${(echo.address() as AddressInfo).port}` });
});

afterAll(async () => {
  await client.close();
  await new Promise((resolve) => echo.close(resolve));
  await sb.close();
});

const event = {
  title: 'Evening digest',
  url: 'https://news.example.com/digest',
  performer: 'editor@example.com',
  target: { include: { apps: ['1001'] } },
};

it('shows a push acknowledgement without the bearer token the service echoed, in any spelling', async () => {
  const { text: ack } = await client.sendPush('immediate', [event]);
  const token = seen.at(-1)!.replace(/^Bearer /, '');
  expect(token.length).toBeGreaterThan(8);
  expect(ack).toContain('accepted;');
  expect(ack).not.toContain(token);
  expect(ack).not.toContain(encodeURIComponent(token));
  expect(ack).toContain(REDACTED);
});

it('does the same for the answers to a task update and a cancellation', async () => {
  for (const ack of [await client.deleteTask('77'), await client.updateTask('77', { title: 'Later' })]) {
    const token = seen.at(-1)!.replace(/^Bearer /, '');
    expect(ack).not.toContain(token);
    expect(ack).toContain(REDACTED);
  }
});

it('shows no token in an acknowledgement that spells it with JSON escapes (redaction reads them)', async () => {
  escapeEverything = true;
  try {
    const { text: ack } = await client.sendPush('immediate', [event]);
    const token = seen.at(-1)!.replace(/^Bearer /, '');
    expect(ack).not.toContain(token);
  } finally {
    escapeEverything = false;
  }
});
