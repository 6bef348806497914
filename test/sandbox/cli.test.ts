import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/sandbox/cli-args';
import { call } from '../helpers/sandbox';
import { until } from '../helpers/wait';

// `npm run sandbox` runs `tsx src/sandbox/cli.ts`; spawning tsx directly keeps the exit code and
// signals ours (npx would swallow SIGTERM and orphan the server).
const ROOT = join(__dirname, '../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const dir = mkdtempSync(join(tmpdir(), 'sandbox-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  stdout: string;
  stderr: string;
  code: number | null;
}

/** The control secret the runs below are given through the environment (as a script would). */
const SECRET = 'cli-test-control-secret-0123456789';
const withSecret = { ...process.env, SANDBOX_CONTROL_SECRET: SECRET };

function runCli(
  args: string[],
  onLine?: (line: string, stop: () => void, stderr: () => string) => void,
  env: NodeJS.ProcessEnv = withSecret,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, ['src/sandbox/cli.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.stdout.on('data', (d: Buffer) => {
      const before = stdout;
      stdout += d.toString();
      if (onLine && !before.includes('\n') && stdout.includes('\n'))
        onLine(
          stdout.split('\n')[0],
          () => child.kill('SIGTERM'),
          () => stderr,
        );
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, code });
    });
  });
}

describe('sandbox CLI', () => {
  it('prints exactly one ready line with a free port, serves, and exits 0 on SIGTERM', async () => {
    let clock: unknown;
    const run = await runCli(['--port', '0', '--clock', 'manual'], (line, stop) => {
      const url = /^Sandbox listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line)?.[1];
      expect(url).toBeDefined();
      call({ url: url!, controlSecret: SECRET }, 'GET', '/_sandbox/clock').then(
        (r) => {
          clock = r.body;
          stop();
        },
        () => stop(),
      );
    });
    expect(run.code).toBe(0);
    expect(run.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(clock).toMatchObject({ mode: 'manual' });
  });

  it('exits 0 on SIGINT too, and loads a fixtures file', async () => {
    const file = join(dir, 'example.json');
    writeFileSync(file, readFileSync(join(ROOT, 'docs/sandbox-fixtures.example.json')));
    let now: unknown;
    const run = await new Promise<Run>((resolve, reject) => {
      const child = spawn(TSX, ['src/sandbox/cli.ts', '--fixtures', file, '--clock=manual', `--control-secret=${SECRET}`], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        const url = /listening on (\S+)/.exec(stdout)?.[1];
        if (url) {
          void call({ url, controlSecret: SECRET }, 'GET', '/_sandbox/clock').then((r) => {
            now = (r.body as { iso: string }).iso;
            child.kill('SIGINT');
          });
        }
      });
      child.on('error', reject);
      child.on('exit', (code) => resolve({ stdout, stderr: '', code }));
    });
    expect(run.code).toBe(0);
    expect(now).toBe('2026-11-21T09:00:00.000Z');
  });

  it('without a secret given, makes one and prints it on stderr (stdout stays one line); control requests need it', async () => {
    const { SANDBOX_CONTROL_SECRET: _given, ...env } = process.env;
    let statuses: number[] = [];
    let printed: string | undefined;
    const run = await runCli(
      ['--clock', 'manual'],
      (line, stop, stderr) => {
        const url = /listening on (\S+)/.exec(line)![1];
        // The secret line follows the address on stderr.
        void until(() => (printed = /control API secret (\S+)/.exec(stderr())?.[1]), 'the secret on stderr')
          .then(() =>
            Promise.all([call({ url }, 'GET', '/_sandbox/clock'), call({ url, controlSecret: printed }, 'GET', '/_sandbox/clock')]),
          )
          .then((rs) => (statuses = rs.map((r) => r.status)))
          .finally(stop);
      },
      env,
    );
    expect(printed).toMatch(/^[\w-]{40,}$/);
    expect(statuses).toEqual([403, 200]);
    expect(run.stdout.trimEnd().split('\n')).toHaveLength(1);
  });

  it('refuses a control secret too short to be one, from the option or the environment', () => {
    expect(() => parseArgs(['--control-secret', 'abc'])).toThrow('must be at least 16 characters');
    expect(() => parseArgs([], { SANDBOX_CONTROL_SECRET: 'abc' })).toThrow('must be at least 16 characters');
    expect(parseArgs(['--control-secret', SECRET], { SANDBOX_CONTROL_SECRET: 'another-one-0123456789' }).controlSecret).toBe(SECRET);
    expect(parseArgs([], withSecret).controlSecret).toBe(SECRET);
  });

  it('exits non-zero naming the file, the JSON path and the problem for a bad fixtures file', async () => {
    const f = JSON.parse(readFileSync(join(ROOT, 'docs/sandbox-fixtures.example.json'), 'utf8')) as { accounts: { account_id: string }[] };
    f.accounts[2].account_id = 'north_net';
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ ...f, extra_key: 1 }));
    const run = await runCli(['--port', '0', '--fixtures', file]);
    expect(run.code).not.toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`${file}: accounts[2].account_id: account id must contain letters only`);
    expect(run.stderr).toContain(`${file}: extra_key: unknown key`);
  });

  it('plays the variants given with --variant, and keeps them across a reset', async () => {
    let seen: unknown[] = [];
    const args = ['--clock', 'manual', '--variant', 'problem_json', '--variant', 'page_size_cap=25', '--variant=date_offset=+05:30'];
    const run = await runCli(args, (line, stop) => {
      const url = /listening on (\S+)/.exec(line)![1];
      const target = { url, controlSecret: SECRET };
      void (async () => {
        const before = await call(target, 'GET', '/_sandbox/variants');
        await call(target, 'POST', '/_sandbox/reset');
        const after = await call(target, 'GET', '/_sandbox/variants');
        const error = await call(target, 'GET', '/core/api/1.0/acmeshoes/campaigns');
        seen = [before.body, after.body, error.headers['content-type']];
      })().finally(stop);
    });
    expect(run.code).toBe(0);
    const variants = { problem_json: true, page_size_cap: 25, date_offset: '+05:30' };
    expect(seen).toEqual([{ variants }, { variants }, 'application/problem+json']);
  });

  it('plays chaos from --seed, and prints on stderr what the seed picked, as GET /_sandbox/variants shows it', async () => {
    let shown: unknown;
    const run = await runCli(['--clock', 'manual', '--variant', 'chaos', '--seed', '7'], (line, stop) => {
      const url = /listening on (\S+)/.exec(line)![1];
      call({ url, controlSecret: SECRET }, 'GET', '/_sandbox/variants')
        .then((r) => (shown = (r.body as { variants: unknown }).variants))
        .finally(stop);
    });
    expect(run.code).toBe(0);
    expect(shown).toMatchObject({ chaos: true, seed: 7 });
    expect(run.stderr).toContain(`sandbox: chaos seed 7 plays ${JSON.stringify(shown)}`);
  });

  it('exits 2 with the problem and the usage for bad arguments, printing nothing on stdout', async () => {
    const run = await runCli(['--variant', 'nonsense']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown variant nonsense');
    expect(run.stderr).toContain('usage: npm run sandbox');
    expect(run.stdout).toBe('');
  });

  // What the process above prints for each: read from the arguments alone, no process needed.
  it.each([
    [['--variant', 'nonsense'], 'unknown variant nonsense'],
    [['--variant', 'page_size_cap=0'], '--variant page_size_cap:'],
    [['--variant', 'date_offset=+5'], '--variant date_offset: must be an offset such as +05:30 or -08:00'],
    [['--variant', 'problem_json', '--variant', 'problem_json=false'], 'variant problem_json given twice'],
    [['--port', 'abc'], '--port must be 0-65535, got abc'],
    [['--bogus'], 'unknown argument --bogus'],
    [['--clock', 'sundial'], '--clock must be real or manual, got sundial'],
    [['--port'], '--port needs a value'],
    [['--seed', 'x'], '--variant seed:'],
    [['--seed', '1', '--variant', 'seed=2'], 'variant seed given twice'],
  ])('refuses the arguments %j, saying why', (args, message) => {
    expect(() => parseArgs(args)).toThrow(message);
  });
});
