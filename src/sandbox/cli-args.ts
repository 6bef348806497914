// The command line of `npm run sandbox` (src/sandbox/cli.ts), read into startSandbox's options;
// a module of its own so tests can read arguments without starting a sandbox.
import { CONTROL_SECRET_ENV } from './control-secret';
import type { SandboxOptions } from './index';
import { parseVariantArg, variantsSchema } from './variants';

export const USAGE =
  'usage: npm run sandbox -- [--port N] [--fixtures FILE] [--clock real|manual] [--variant NAME[=VALUE]]... [--seed N] [--control-secret S]';
const MIN_SECRET_LENGTH = 16;

export class UsageError extends Error {}

export function parseArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): SandboxOptions {
  const opts: SandboxOptions = {};
  const seen = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (!['--port', '--fixtures', '--clock', '--variant', '--seed', '--control-secret'].includes(name))
      throw new UsageError(`unknown argument ${arg}`);
    if (seen.has(name) && name !== '--variant') throw new UsageError(`${name} given twice`);
    seen.add(name);
    if (value === undefined || value === '') throw new UsageError(`${name} needs a value`);
    if (name === '--variant' || name === '--seed') {
      opts.variants ??= {};
      try {
        // `--seed N` is `--variant seed=N`: the seed of chaos and of every per-request choice.
        parseVariantArg(name === '--seed' ? `seed=${value}` : value, opts.variants as Record<string, unknown>);
      } catch (e) {
        throw new UsageError((e as Error).message);
      }
    } else if (name === '--port') {
      if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) throw new UsageError(`--port must be 0-65535, got ${value}`);
      opts.port = Number(value);
    } else if (name === '--control-secret') {
      opts.controlSecret = value;
    } else if (name === '--fixtures') {
      opts.fixturesPath = value;
    } else {
      if (value !== 'real' && value !== 'manual') throw new UsageError(`--clock must be real or manual, got ${value}`);
      opts.clock = value;
    }
  }
  const fromEnv = env[CONTROL_SECRET_ENV];
  if (opts.controlSecret === undefined && fromEnv !== undefined && fromEnv !== '') opts.controlSecret = fromEnv;
  if (opts.controlSecret !== undefined && opts.controlSecret.length < MIN_SECRET_LENGTH) {
    throw new UsageError(`the control secret (--control-secret or ${CONTROL_SECRET_ENV}) must be at least ${MIN_SECRET_LENGTH} characters`);
  }
  if (opts.variants !== undefined) {
    // Values are checked here too, so a bad one is a usage error naming the variant.
    const checked = variantsSchema.safeParse(opts.variants);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      throw new UsageError(`--variant ${issue.path.join('.')}: ${issue.message}`);
    }
    opts.variants = checked.data;
  }
  return opts;
}
