// Everything a running sandbox holds, in one place the routes share. A reset replaces the world
// and forgets rate windows, the request log and faults; the clock and the server stay.
import type { SandboxClock } from './clock';
import { Faults } from './faults';
import { loadFixturesFile, type Fixtures } from './fixtures';
import { RateLimiter } from './rate-limiter';
import { RequestLog } from './request-log';
import { World } from './state';

export const DEFAULT_TOKEN_TTL_S = 3600;
/** Spec 3.4 and 8.2. */
export const AUTH_CODE_TTL_MS = 10 * 60 * 1000;

export class SandboxCore {
  world: World;
  limiter: RateLimiter;
  readonly log = new RequestLog();
  readonly faults = new Faults();
  /** Set once the server listens; image addresses default to `${origin}/_cdn`. */
  origin = 'http://127.0.0.1';

  constructor(
    readonly clock: SandboxClock,
    private fixtures: Fixtures,
    private readonly fixturesPath?: string,
  ) {
    this.world = new World(fixtures, clock.now());
    this.limiter = new RateLimiter(fixtures);
  }

  get tokenTtlS(): number {
    return this.fixtures.token_ttl_s ?? DEFAULT_TOKEN_TTL_S;
  }

  get cdnBase(): string {
    const configured = this.fixtures.image_cdn_url;
    return configured ? configured.replace(/\/+$/, '') : `${this.origin}/_cdn`;
  }

  /**
   * Back to the fixtures: a file is read again (so it can be edited between tests); a bad file
   * throws SandboxFixturesError and leaves the current world untouched.
   */
  reset(): void {
    const fixtures = this.fixturesPath === undefined ? this.fixtures : loadFixturesFile(this.fixturesPath);
    this.fixtures = fixtures;
    this.clock.reset(fixtures.now === undefined ? undefined : Date.parse(fixtures.now));
    this.world = new World(fixtures, this.clock.now());
    this.limiter = new RateLimiter(fixtures);
    this.log.clear();
    this.faults.clear();
  }
}
