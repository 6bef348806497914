// A sandbox whose world outlives the process: the built-in demo keeps its campaigns and tasks in a
// file of the app's data folder, so what a person posted is still there after a restart and new
// ids go on from the last one. Written after each applied write (debounced, one write at a time)
// to a temporary file that is then renamed over the old one: a crash leaves the old file or the
// new one, never half of one. Read back with zod; a file that does not parse is set aside.
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { SandboxCore } from './core';
import type { CampaignRecord, StoredCampaign, StoredTask, TaskRecord } from './records';
import type { KeptWorld } from './state';

const FORMAT = 1;
const digits = z.string().regex(/^\d{1,40}$/);
const big = digits.transform((s) => BigInt(s));

const fileSchema = z.object({
  format: z.literal(FORMAT),
  nextCampaignId: big,
  nextTaskId: big,
  swPaths: z.record(z.string(), z.string().nullable()),
  campaigns: z.array(
    z.object({
      accountId: z.string(),
      createdAtMs: z.number(),
      record: z.object({ id: big, advertiser_id: z.string(), name: z.string(), status: z.string(), created_at: z.string() }).passthrough(),
    }),
  ),
  tasks: z.array(
    z.object({
      appId: z.string(),
      createdAtMs: z.number().optional(),
      target: z.unknown().optional(),
      record: z
        .object({
          taskId: big,
          tagId: big,
          taskType: z.enum(['immediate', 'scheduled']),
          taskStatus: z.string(),
          executionTime: z.number(),
        })
        .passthrough(),
    }),
  ),
});

/** The world as text: bigints (ids) as decimal strings, read back exactly by the schema. */
export function worldToText(kept: KeptWorld): string {
  return JSON.stringify({ format: FORMAT, ...kept }, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

/** The kept world in a file's text, or why it cannot be used. */
export function worldFromText(text: string): { ok: true; kept: KeptWorld } | { ok: false; why: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, why: `not JSON (${(e as Error).message})` };
  }
  const r = fileSchema.safeParse(json);
  if (!r.success) return { ok: false, why: r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') };
  return {
    ok: true,
    kept: {
      nextCampaignId: r.data.nextCampaignId,
      nextTaskId: r.data.nextTaskId,
      swPaths: r.data.swPaths,
      // The schema checked the fields the sandbox relies on; the rest is what it wrote itself.
      campaigns: r.data.campaigns.map((c) => ({ ...c, record: c.record as unknown as CampaignRecord }) satisfies StoredCampaign),
      tasks: r.data.tasks.map((t) => ({ ...t, record: t.record as unknown as TaskRecord }) as StoredTask),
    },
  };
}

export interface KeptSandbox {
  /** Writes what is pending now (before the process ends). */
  flush(): Promise<void>;
}

/**
 * Loads the file into the core's world if there is one, and writes the world there after every
 * applied write from now on. `log` hears of a file that was set aside or a write that failed.
 */
export function keepSandboxIn(core: SandboxCore, path: string, opts: { debounceMs?: number; log?: (m: string) => void } = {}): KeptSandbox {
  const log = opts.log ?? (() => undefined);
  if (existsSync(path)) {
    const read = worldFromText(readFileSync(path, 'utf8'));
    if (read.ok) core.world.restore(read.kept);
    else {
      // Kept for a person to look at, out of the way of the next write.
      const aside = `${path}.unreadable-${Date.now()}`;
      renameSync(path, aside);
      log(`sandbox: ${path} could not be read (${read.why}); it was moved to ${aside} and the demo starts from its sample data`);
    }
  }
  const debounceMs = opts.debounceMs ?? 200;
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> | null = null;
  let again = false;

  const writeNow = async (): Promise<void> => {
    if (writing) {
      again = true;
      return writing;
    }
    writing = (async () => {
      do {
        again = false;
        const tmp = `${path}.${process.pid}.tmp`;
        try {
          await mkdir(dirname(path), { recursive: true });
          await writeFile(tmp, worldToText(core.world.keepable()), 'utf8');
          await rename(tmp, path);
        } catch (e) {
          log(`sandbox: the demo's state could not be written to ${path}: ${(e as Error).message}`);
        }
      } while (again);
    })().finally(() => {
      writing = null;
    });
    return writing;
  };

  core.onChange = () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      void writeNow();
    }, debounceMs);
    // A pending write must not keep a process alive that is otherwise done; flush() covers a close.
    timer.unref();
  };

  return {
    async flush() {
      if (timer) {
        clearTimeout(timer);
        timer = null;
        await writeNow();
      }
      await writing;
    },
  };
}
