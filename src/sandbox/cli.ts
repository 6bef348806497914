// `npm run sandbox -- [--port N] [--fixtures FILE] [--clock real|manual] [--variant NAME[=VALUE]]... [--control-secret S]`:
// runs the sandbox until SIGINT or SIGTERM. stdout carries exactly one line, the address, so
// scripts can wait for it. The control API's secret comes from --control-secret or
// $SANDBOX_CONTROL_SECRET (better: not visible in the process list); without either a random one
// is made and printed on stderr.
import { CONTROL_SECRET_ENV, CONTROL_SECRET_HEADER } from './control-secret';
import { SandboxFixturesError, startSandbox, type SandboxOptions } from './index';
import { parseVariantArg, variantsSchema } from './variants';

const USAGE = 'usage: npm run sandbox -- [--port N] [--fixtures FILE] [--clock real|manual] [--variant NAME[=VALUE]]... [--control-secret S]';
const MIN_SECRET_LENGTH = 16;

class UsageError extends Error {}

export function parseArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): SandboxOptions {
  const opts: SandboxOptions = {};
  const seen = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (!['--port', '--fixtures', '--clock', '--variant', '--control-secret'].includes(name)) throw new UsageError(`unknown argument ${arg}`);
    if (seen.has(name) && name !== '--variant') throw new UsageError(`${name} given twice`);
    seen.add(name);
    if (value === undefined || value === '') throw new UsageError(`${name} needs a value`);
    if (name === '--variant') {
      opts.variants ??= {};
      try {
        parseVariantArg(value, opts.variants as Record<string, unknown>);
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

async function main(): Promise<void> {
  let opts: SandboxOptions;
  try {
    opts = parseArgs(process.argv.slice(2), process.env);
  } catch (e) {
    process.stderr.write(`sandbox: ${(e as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
  let sandbox;
  try {
    sandbox = await startSandbox(opts);
  } catch (e) {
    const message = e instanceof SandboxFixturesError ? `bad fixtures file\n${e.message}` : (e as Error).message;
    process.stderr.write(`sandbox: ${message}\n`);
    process.exit(1);
  }
  process.stdout.write(`Sandbox listening on ${sandbox.url}\n`);
  if (opts.controlSecret === undefined) {
    process.stderr.write(`sandbox: control API secret ${sandbox.controlSecret} (send it as the ${CONTROL_SECRET_HEADER} header; choose one with ${CONTROL_SECRET_ENV})\n`);
  }
  const running = sandbox;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`sandbox: ${signal}, closing\n`);
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

void main();
