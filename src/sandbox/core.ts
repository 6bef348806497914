// Everything a running sandbox holds, in one place the routes share. A reset replaces the world
// and forgets rate windows, the request log, faults and late writes; the clock and the server stay.
import type { SandboxClock } from './clock';
import { expandChaos } from './chaos';
import { Choices } from './choices';
import { Faults } from './faults';
import { loadFixturesFile, type Fixtures } from './fixtures';
import { LateWrites } from './late-writes';
import { RateLimiter } from './rate-limiter';
import { RequestLog } from './request-log';
import { World } from './state';
import type { Variants } from './variants';

export const DEFAULT_TOKEN_TTL_S = 3600;
/** Spec 3.4 and 8.2. */
export const AUTH_CODE_TTL_MS = 10 * 60 * 1000;

export class SandboxCore {
  world: World;
  limiter: RateLimiter;
  /**
   * The legal choices this sandbox plays where the interface leaves room (all off by default);
   * under `chaos`, the ones its seed picked (expanded here, so every route reads concrete variants).
   */
  variants: Variants;
  /** Per-request choices of the variants, from `variants.seed`: started again with the variants. */
  choices: Choices;
  readonly log = new RequestLog();
  readonly faults = new Faults();
  /** Writes a close_after fault dropped, waiting for their time under late_apply_ms. */
  readonly lateWrites = new LateWrites();
  /** Set once the server listens; image addresses default to `${origin}/_cdn`. */
  origin = 'http://127.0.0.1';
  /** Told after every applied write (persist.ts keeps the demo's world on disk this way). */
  onChange: (() => void) | null = null;

  constructor(
    readonly clock: SandboxClock,
    private fixtures: Fixtures,
    private readonly fixturesPath?: string,
    /** Variants given on the command line or to startSandbox: they outlive a reset. */
    private readonly variantOverrides: Variants = {},
  ) {
    this.variants = expandChaos({ ...fixtures.variants, ...variantOverrides });
    this.choices = new Choices(this.variants.seed ?? 1);
    this.world = new World(fixtures, this.serviceNow());
    this.limiter = new RateLimiter(fixtures, this.variants);
    this.fixtures = this.kept(fixtures);
  }

  /**
   * What is kept of the fixtures once the world is built from them. A file is read again on reset,
   * so its campaigns need not stay (a million of them held twice, as fixtures and as the world's
   * records, doubled the sandbox's memory); fixtures given as a value are kept whole for reset.
   */
  private kept(fixtures: Fixtures): Fixtures {
    return this.fixturesPath === undefined ? fixtures : { ...fixtures, campaigns: undefined };
  }

  /** The service's own clock: the sandbox clock moved by the clock_offset_ms variant. */
  serviceNow(): number {
    return this.serviceTimeAt(this.clock.now());
  }

  /** What the service's clock reads when the sandbox clock reads `sandboxMs`. */
  serviceTimeAt(sandboxMs: number): number {
    return sandboxMs + (this.variants.clock_offset_ms ?? 0);
  }

  changed(): void {
    this.onChange?.();
  }

  /** Applies the late writes whose time has come; called on every request and every clock move. */
  applyDueWrites(): void {
    this.lateWrites.runDue(this.clock.now());
  }

  /** Plays other variants from now on; rate windows start empty under the new rules. */
  setVariants(variants: Variants): void {
    this.variants = expandChaos(variants);
    this.choices = new Choices(this.variants.seed ?? 1);
    this.limiter = new RateLimiter(this.fixtures, this.variants);
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
    this.fixtures = this.kept(fixtures);
    this.clock.reset(fixtures.now === undefined ? undefined : Date.parse(fixtures.now));
    this.variants = expandChaos({ ...fixtures.variants, ...this.variantOverrides });
    this.choices = new Choices(this.variants.seed ?? 1);
    this.world = new World(fixtures, this.serviceNow());
    this.limiter = new RateLimiter(fixtures, this.variants);
    this.log.clear();
    this.faults.clear();
    this.lateWrites.clear();
  }
}
