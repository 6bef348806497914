import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../../src/main/store';
import { mulberry32 } from '../../../src/sandbox/random';
import { tempDir } from './helpers';

const ROOT = resolve(__dirname, '../../..');
const WRITER = join(__dirname, 'fixtures/crash-writer.ts');

/** Runs the writer until it has acknowledged `acks` items (plus a random few ms), then SIGKILLs it. */
function runAndKill(file: string, acks: number, extraMs: number): Promise<number[]> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, file], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const acked: number[] = [];
    let stderr = '';
    let killing = false;
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const m = /^ack (\d+)$/.exec(line);
      if (m) acked.push(Number(m[1]));
      if (acked.length >= acks && !killing) {
        killing = true;
        setTimeout(() => child.kill('SIGKILL'), extraMs);
      }
    });
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolvePromise(acked);
      else reject(new Error(`writer exited by itself (code ${code}): ${stderr.slice(-2000)}`));
    });
  });
}

const dir = tempDir('desk-crash-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('crash safety', () => {
  it('keeps every acknowledged outbox item across SIGKILLs, and the file stays sound', async () => {
    const file = join(dir, 'desk.db');
    const rnd = mulberry32(2026);
    const allAcked: number[] = [];
    for (let trial = 0; trial < 3; trial++) {
      const acked = await runAndKill(file, 20 + Math.floor(rnd() * 60), Math.floor(rnd() * 15));
      allAcked.push(...acked);
      const store = openStore({ file });
      try {
        expect(store.integrityCheck()).toEqual(['ok']);
        const present = new Set(store.outbox.list().map((i) => i.seq));
        const lost = allAcked.filter((seq) => !present.has(seq));
        expect(lost, `trial ${trial}: acknowledged but missing`).toEqual([]);
        // Every item is still tied to a submitted draft (draft and outbox row committed together).
        for (const item of store.outbox.list()) expect(store.drafts.get(item.draftId!)?.state).toBe('submitted');
      } finally {
        store.close();
      }
    }
    expect(allAcked.length).toBeGreaterThanOrEqual(60);
  });
});
