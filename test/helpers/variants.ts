// Which service variants the client's integration tests run against. Unset: the sandbox's
// defaults. `SANDBOX_VARIANTS=mixed`: the other legal choice at every point (MIXED_VARIANTS), so
// the same tests prove the client right for a service we did not write. Any other value is read
// as a JSON object of variants (docs/sandbox.md).
import { MIXED_VARIANTS, variantsSchema, type Variants } from '../../src/sandbox/index';

export function testVariants(): Variants | undefined {
  const raw = process.env.SANDBOX_VARIANTS;
  if (raw === undefined || raw === '' || raw === 'default') return undefined;
  if (raw === 'mixed') return MIXED_VARIANTS;
  return variantsSchema.parse(JSON.parse(raw));
}

/** For a test name: which service the file runs against. */
export function variantLabel(): string {
  return process.env.SANDBOX_VARIANTS ? `variants ${process.env.SANDBOX_VARIANTS}` : 'default service';
}

/**
 * The grace period a test gives a lost write: longer than the service's late apply, if it plays
 * one (a look-up cannot tell "not yet" from "never" within it, and tests are not about that).
 */
export function graceFor(variants: Variants | undefined = testVariants()): number {
  return (variants?.late_apply_ms ?? 0) > 0 ? (variants?.late_apply_ms ?? 0) + 500 : 0;
}
