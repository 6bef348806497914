// `npm run sandbox -- [--port N] [--fixtures FILE] [--clock real|manual] [--variant NAME[=VALUE]]... [--seed N] [--control-secret S]`:
// runs the sandbox until SIGINT or SIGTERM. stdout carries exactly one line, the address, so
// scripts can wait for it. The control API's secret comes from --control-secret or
// $SANDBOX_CONTROL_SECRET (better: not visible in the process list); without either a random one
// is made and printed on stderr.
import { parseArgs, USAGE } from './cli-args';
import { CONTROL_SECRET_ENV, CONTROL_SECRET_HEADER } from './control-secret';
import { SandboxFixturesError, startSandbox, type SandboxOptions } from './index';

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
  const played = sandbox.variants();
  if (played.chaos === true) {
    // What the seed picked, so that a failing run can be read and replayed (`--variant chaos --seed N`).
    process.stderr.write(`sandbox: chaos seed ${played.seed} plays ${JSON.stringify(played)}\n`);
  }
  if (opts.controlSecret === undefined) {
    process.stderr.write(
      `sandbox: control API secret ${sandbox.controlSecret} (send it as the ${CONTROL_SECRET_HEADER} header; choose one with ${CONTROL_SECRET_ENV})\n`,
    );
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
