// The sandbox's programmatic API: a faithful local emulator of the service (docs/sandbox.md).
import { createClock, followClock, type DrivingClock } from './clock';
import { newControlSecret } from './control-secret';
import { SandboxCore } from './core';
import { demoFixtures } from './demo-fixtures';
import { loadFixturesFile, parseFixtures, type Fixtures } from './fixtures';
import { keepSandboxIn } from './persist';
import { startServer } from './server';
import { variantsSchema, type Variants } from './variants';

export { fixturesSchema, SandboxFixturesError, type Fixtures } from './fixtures';
export { demoFixtures } from './demo-fixtures';
export { loadFixturesFile };
export type { DrivingClock } from './clock';
export { CONTROL_SECRET_ENV, CONTROL_SECRET_HEADER } from './control-secret';
export { DATE_FORMS, LIST_ENVELOPES, MIXED_VARIANTS, VARIANT_NAMES, variantsSchema, type Variants } from './variants';

export interface SandboxOptions {
  /** Default 0: a free port. The server binds 127.0.0.1 only. */
  port?: number;
  fixtures?: Fixtures;
  fixturesPath?: string;
  /**
   * Default real. A manual clock starts at fixtures.now (or the real time) and moves only when told.
   * A DrivingClock is a manual clock the caller owns (its own time; reset does not move it).
   */
  clock?: 'real' | 'manual' | DrivingClock;
  /** Service variants to play on top of the fixtures' own (docs/sandbox.md); a key given here wins. */
  variants?: Variants;
  /**
   * The secret every control request (/_sandbox/...) must carry in the X-Sandbox-Control header.
   * Default: a fresh random one, returned as `controlSecret`.
   */
  controlSecret?: string;
  /**
   * A file that keeps the world between runs (the app's built-in demo): read at start if it is
   * there, written after every applied write. Default none: each start begins from the fixtures.
   */
  statePath?: string;
  /** Where the sandbox says what went wrong with its state file. */
  log?: (message: string) => void;
}

export interface RunningSandbox {
  /** 'http://127.0.0.1:PORT' (no trailing slash): base_url = auth_url = push_url. */
  url: string;
  port: number;
  /** What the X-Sandbox-Control header of a control request must hold. */
  controlSecret: string;
  /** Sandbox clock, ms. */
  now(): number;
  /** The variants played now (under chaos: what its seed picked, with the seed). */
  variants(): Variants;
  /** The request log's newest sequence number: a test sees the service is quiet without asking it. */
  lastRequestSeq(): number;
  /** Manual clock only (throws on a real clock). */
  advance(ms: number): void;
  /** Closes the server and all its sockets promptly (and writes the state file, if kept). */
  close(): Promise<void>;
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  if (opts.fixtures !== undefined && opts.fixturesPath !== undefined) {
    throw new TypeError('startSandbox: give fixtures or fixturesPath, not both');
  }
  const startedAt = Date.now();
  const fixtures =
    opts.fixtures !== undefined
      ? parseFixtures(opts.fixtures, 'fixtures option')
      : opts.fixturesPath !== undefined
        ? loadFixturesFile(opts.fixturesPath)
        : demoFixtures(startedAt);
  const start = fixtures.now === undefined ? startedAt : Date.parse(fixtures.now);
  const clock = typeof opts.clock === 'object' ? followClock(opts.clock) : createClock(opts.clock ?? 'real', start);
  const core = new SandboxCore(clock, fixtures, opts.fixturesPath, opts.variants === undefined ? {} : variantsSchema.parse(opts.variants));
  if (opts.controlSecret !== undefined && opts.controlSecret.length < 16) {
    throw new TypeError('startSandbox: controlSecret must be at least 16 characters (leave it out for a random one)');
  }
  const kept = opts.statePath === undefined ? null : keepSandboxIn(core, opts.statePath, opts.log ? { log: opts.log } : {});
  const controlSecret = opts.controlSecret ?? newControlSecret();
  const server = await startServer(core, opts.port ?? 0, controlSecret);
  const url = `http://127.0.0.1:${server.port}`;
  core.origin = url;
  return {
    url,
    port: server.port,
    controlSecret,
    now: () => clock.now(),
    variants: () => ({ ...core.variants }),
    lastRequestSeq: () => core.log.lastSeq,
    advance: (ms: number) => {
      clock.advance(ms);
      core.applyDueWrites();
    },
    close: async () => {
      await server.close();
      await kept?.flush();
    },
  };
}
