// The one path every call takes, whatever carried it (Electron IPC or browser mode's HTTP):
// contract check of the input, the handler, contract check of the output, errors as data.
// Nothing here throws: a caller always gets a Result it can send back as it is.
import type { z } from 'zod';
import { channels, isChannelName, type DeskHandlers } from '../../shared/ipc/contract';
import { DeskError, type DeskErrorData, type Result } from '../../shared/errors';

export type DispatchLog = (message: string) => void;

export interface DispatchOptions {
  /** Where problems of our own making are reported (never with input values: they may hold secrets). */
  log?: DispatchLog;
}

const MAX_ISSUES = 10;

export function invalidInput(message: string, details?: Record<string, unknown>): Result<never> {
  const error: DeskErrorData = { code: 'invalid_input', message };
  if (details !== undefined) error.details = details;
  return { ok: false, error };
}

/** Issue paths and zod's messages only: zod 4 does not echo input values unless asked to. */
function describeIssues(issues: readonly z.core.$ZodIssue[]): { path: string; message: string }[] {
  return issues.slice(0, MAX_ISSUES).map((i) => ({
    path: i.path.map((p) => String(p)).join('.') || '(input)',
    message: i.message,
  }));
}

/** A channel name as it may be shown back: printable and short, since it came from outside. */
function printable(name: unknown): string {
  if (typeof name !== 'string') return `(${typeof name})`;
  const clean = name.replace(/[^\x20-\x7e]/g, '?');
  return clean.length > 60 ? `${clean.slice(0, 60)}...` : clean;
}

/** Stack frames without the message line: the message of a foreign error may carry a secret. */
function framesOf(err: unknown): string {
  if (!(err instanceof Error) || typeof err.stack !== 'string') return '';
  return err.stack.split('\n').slice(1, 6).join('\n');
}

export async function dispatch(
  handlers: DeskHandlers,
  channel: unknown,
  rawInput: unknown,
  opts: DispatchOptions = {},
): Promise<Result<unknown>> {
  const log = opts.log ?? ((m: string) => console.error(m));
  if (!isChannelName(channel)) {
    return invalidInput(`Campaign Desk has no operation named "${printable(channel)}". Update the app if this keeps happening.`);
  }
  const spec = channels[channel];
  // A call without an argument means "no fields"; null is not an object and is refused like any other.
  const parsed = spec.input.safeParse(rawInput === undefined ? {} : rawInput);
  if (!parsed.success) {
    const issues = describeIssues(parsed.error.issues);
    const first = issues[0];
    return invalidInput(
      `The request for ${channel} was refused: ${first ? `${first.path}: ${first.message}` : 'it does not match the contract'}.`,
      { issues },
    );
  }

  let value: unknown;
  try {
    const handler = handlers[channel] as (args: unknown) => Promise<unknown>;
    value = await handler(parsed.data);
  } catch (err) {
    if (err instanceof DeskError) return { ok: false, error: err.toData() };
    log(`[desk] ${channel} failed with ${err instanceof Error ? err.name : typeof err}\n${framesOf(err)}`);
    return {
      ok: false,
      error: { code: 'internal', message: `Campaign Desk could not complete ${channel}. Try again; if it keeps failing, restart the app.` },
    };
  }

  // The output schema is the last gate before data leaves main: it catches contract drift, and
  // because the schemas are closed objects it also strips any field the contract does not name.
  const out = spec.output.safeParse(value);
  if (!out.success) {
    log(`[desk] ${channel} returned a value outside the contract: ${JSON.stringify(describeIssues(out.error.issues))}`);
    return {
      ok: false,
      error: {
        code: 'internal',
        message: `Campaign Desk produced an unexpected answer for ${channel}. Restart the app; if it persists, report it.`,
      },
    };
  }
  return { ok: true, value: out.data };
}
