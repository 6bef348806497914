// `npm run bench`: runs every benchmark (never part of `npm test`) and rewrites
// docs/benchmarks.md with the figures, the machine they ran on and the command that made them.
// `npm run bench -- refresh sandbox` runs a subset; the document then keeps the other sections.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { MARKDOWN_HEADER, markdownRow, runSandboxLoad } from './sandbox-load';
import { schedulerBenchMarkdown } from './scheduler';
import { refreshBenchMarkdown, runRefreshBench } from './refresh';
import { gridScrollMarkdown, runGridScrollBench } from './grid-scroll';
import { runScaleBench, scaleMarkdown } from './scale';

interface Section {
  key: string;
  title: string;
  command: string;
  about: string;
  run: () => Promise<string>;
}

const SECTIONS: Section[] = [
  {
    key: 'sandbox',
    title: 'Sandbox throughput',
    command: 'npx tsx bench/sandbox-load.ts',
    about:
      'Token-authenticated campaign lists of an unlimited account, 20,000 requests at concurrency 32 over ' +
      'keep-alive loopback connections; the sandbox runs as its own process so the load generator does not ' +
      'share its event loop. Target: at least 2,000 requests/s.',
    run: async () => `${MARKDOWN_HEADER}\n${markdownRow(await runSandboxLoad())}`,
  },
  {
    key: 'scheduler',
    title: 'Rate-limit scheduler',
    command: 'npx tsx bench/scheduler.ts',
    about:
      "The app's scheduler (inside its service client) drains queued campaign creates and list pages against the " +
      'sandbox playing each legal rate-limit choice of a service (sliding logs or token buckets, other header spellings, ' +
      'Retry-After as a date from a service whose clock is minutes off), then on the real clock against a naive client and ' +
      'bottleneck. Target for Campaign Desk: at most 1.05 x the minimum the quotas allow, no 429 that could be avoided. ' +
      "Before the scheduler followed r and t under either refill rule and read a date Retry-After on the Date header's " +
      'clock (2026-11-24), the same virtual rows measured 1.293 (token buckets, creates), 1.284 (Retry-After as a date, ' +
      'service clock +2 min), 3.284 (+10 min) and 4.187 (token buckets, +10 min). ' +
      '`npx tsx bench/scheduler.ts virtual` runs the first part alone, in a few seconds.',
    run: () => schedulerBenchMarkdown(),
  },
  {
    key: 'refresh',
    title: 'First refresh through the app (one request, streamed)',
    command: 'npx tsx bench/refresh.ts',
    about:
      'An app core (its own store, scheduler and service client) adds a new account and caches it with its own refresh, ' +
      'against the sandbox in a child process; a plain client (undici, body read whole, JSON.parse) fetches the same ' +
      'unpaged listing first in the same run. A draft is saved every 50 ms meanwhile. The network run is a process of its ' +
      'own, so its peak RSS is its own (the sandbox is another process). Targets: list reads 1 (pages needed under a cap), ' +
      'within 2x of the plain client, first rows within 1 s, no event-loop hold over 50 ms, draft save p99 under 20 ms, ' +
      'the network under 600 MB with a bounded number of threads.',
    run: async () => refreshBenchMarkdown(await runRefreshBench()),
  },
  {
    key: 'grid',
    title: 'Campaign grid: 100,000 rows scrolled with the mouse wheel',
    command: 'npx tsx bench/grid-scroll.ts',
    about:
      "The app in browser mode caches a 100,000-campaign account with its own refresh; Debian's Chromium scrolls its grid with " +
      'page.mouse.wheel (steady notches, fast flings, to the end and back, then sorted by name). The page counts long tasks and, ' +
      'every frame, rows in view with no row at all (empty space) or still waiting for data; then the switch to a second account ' +
      'and back is timed (click to its first rows painted). Targets: no long task over 50 ms, no empty space, a switch under ' +
      '100 ms. `--rows 1000000 --unsorted-only` measures a million rows. Needs the built renderer (npx vite build --config vite.renderer.config.mts).',
    run: async () => gridScrollMarkdown(await runGridScrollBench()),
  },
  {
    key: 'scale',
    title: 'Refresh at scale: plain fetch and app side by side',
    command: 'npx tsx bench/scale.ts',
    about:
      'One account of N campaigns in a sandbox child. In one run: a plain client (undici, body read whole, JSON.parse) fetches ' +
      'the unpaged listing, then an app core caches the account with its first refresh (empty cache), then the plain fetch ' +
      "again beside the app's second refresh of the unchanged account (a record whose bytes have the digest stored with its cached row is not parsed or written). The 1-minute load " +
      'average of the machine is in brackets beside each time. Peak RSS: the bench process, which holds the app core alone (the ' +
      'plain client runs in a process of its own, bench/plain-child.ts, whose peak is in brackets; the sandbox is a third); ' +
      'the second figure runs from the end of the first refresh (index builds included) to the end of the second, and the ' +
      'column after it gives the RSS as the second refresh began and its peak while it ran. "Second refresh CPU": the bench ' +
      "process's CPU time (user and system, every thread of the app core) while the second refresh ran, which the load sways less than its wall time. " +
      '"Indexes built after": a first load goes into the bare table, and the cache writer builds the nine sort indexes and the text index after ' +
      'the refresh is done (the grid sorts without them meanwhile); the second refresh is measured once they are built, and ' +
      'the cache size (the cache file and its WAL) is taken then. "App / plain, each round": the first refresh measured again ' +
      "after another plain fetch, in a cache of its own, three rounds per size alternating (the first is the run's own), since " +
      'one run moves by more than the changes it measures. One size: `npx tsx bench/scale.ts 100000 [--rounds N]`.',
    run: async () => scaleMarkdown(await runScaleBench()),
  },
];

const DOC = join(__dirname, '..', 'docs', 'benchmarks.md');
const BEGIN = (k: string) => `<!-- bench:${k}:begin -->`;
const END = (k: string) => `<!-- bench:${k}:end -->`;

function machine(): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  return `${cpus().length} cores (${cpu.trim()}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}`;
}

function sectionText(s: Section, body: string): string {
  return [
    BEGIN(s.key),
    `## ${s.title}`,
    '',
    s.about,
    '',
    `Command: \`${s.command}\` (or \`npm run bench -- ${s.key}\`). Last run ${new Date().toISOString().slice(0, 16)}Z on ${machine()}.`,
    '',
    body,
    END(s.key),
  ].join('\n');
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const chosen = wanted.length === 0 ? SECTIONS : SECTIONS.filter((s) => wanted.includes(s.key));
  if (chosen.length === 0) {
    console.error(`Unknown benchmark. Choose from: ${SECTIONS.map((s) => s.key).join(', ')}`);
    process.exit(2);
  }
  let doc = existsSync(DOC)
    ? readFileSync(DOC, 'utf8')
    : '# Benchmarks\n\nMade by `npm run bench` (not part of `npm test`). Each section says the command that made it.\n';
  for (const s of chosen) {
    console.error(`bench: ${s.key} ...`);
    const text = sectionText(s, await s.run());
    const a = doc.indexOf(BEGIN(s.key));
    const b = doc.indexOf(END(s.key));
    doc = a >= 0 && b > a ? doc.slice(0, a) + text + doc.slice(b + END(s.key).length) : `${doc.trimEnd()}\n\n${text}\n`;
    console.log(text);
  }
  mkdirSync(join(DOC, '..'), { recursive: true });
  writeFileSync(DOC, doc);
  console.error(`bench: wrote ${DOC}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
