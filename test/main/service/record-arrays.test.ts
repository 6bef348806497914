// The scan that finds the arrays of an answer whose wrapper is not shown: whatever chunks the body
// arrives in (split at every byte here), it hands out the same elements as reading it whole, keeps
// strings and escapes intact, and says when a body is not JSON or is cut short.
import { describe, expect, it } from 'vitest';
import { RecordArrayScanner, UnreadableBodyError, type ArrayElement } from '../../../src/main/service/record-arrays';

function scan(chunks: Buffer[]): { elements: ArrayElement[]; empty: boolean } {
  const s = new RecordArrayScanner();
  const elements = chunks.flatMap((c) => s.write(c));
  return { elements, empty: s.end().empty };
}

function everySplit(text: string): Buffer[][] {
  const b = Buffer.from(text);
  return Array.from({ length: b.length + 1 }, (_, i) => [b.subarray(0, i), b.subarray(i)]);
}

const TASK_A = { taskId: 1, title: 'A "quoted" title, with ] and } inside \\ and ünïcödé ✓', nested: { list: [1, { x: [] }] } };
const TASK_B = { taskId: 2, title: '' };

describe('RecordArrayScanner', () => {
  it.each([
    [
      'a bare array',
      [TASK_A, TASK_B],
      [
        { path: '', value: TASK_A },
        { path: '', value: TASK_B },
      ],
    ],
    [
      'a wrapper with metadata beside',
      { count: 2, items: [TASK_A, TASK_B], next: null },
      [
        { path: 'items', value: TASK_A },
        { path: 'items', value: TASK_B },
      ],
    ],
    [
      'a wrapper nested one level',
      { payload: { meta: { total: 2 }, tasks: [TASK_A] }, links: [{ rel: 'self' }] },
      [
        { path: 'payload.tasks', value: TASK_A },
        { path: 'links', value: { rel: 'self' } },
      ],
    ],
    ['an empty object', {}, []],
    [
      'scalars in an array',
      { items: [1, 'two', null, true] },
      [
        { path: 'items', value: 1 },
        { path: 'items', value: 'two' },
        { path: 'items', value: null },
        { path: 'items', value: true },
      ],
    ],
  ])('reads %s the same in any two chunks', (_name, body, expected) => {
    for (const pretty of [JSON.stringify(body), JSON.stringify(body, null, 2)]) {
      for (const chunks of everySplit(pretty)) expect(scan(chunks).elements).toEqual(expected);
    }
  });

  it('does not look into arrays deeper than one level under the wrapper', () => {
    expect(scan([Buffer.from(JSON.stringify({ a: { b: { c: [TASK_A] } } }))]).elements).toEqual([]);
  });

  it('keeps task ids beyond 2^53 exact (as their digits) and passes over a byte order mark', () => {
    const text = '\uFEFF{"tasks":[{"taskId":1152921504606846977,"tagId":9007199254740993,"title":"a"},{"taskId":1152921504606846978}]}';
    const ids = scan([Buffer.from(text)]).elements.map((e) => (e.value as { taskId: unknown }).taskId);
    expect(ids).toEqual(['1152921504606846977', '1152921504606846978']);
  });

  it('refuses a record larger than 1 MB as it arrives, in words', () => {
    const s = new RecordArrayScanner();
    s.write(Buffer.from('{"tasks":[{"taskId":1,"title":"'));
    const piece = Buffer.from('x'.repeat(64 * 1024));
    expect(() => {
      for (let i = 0; i < 20; i++) s.write(piece);
    }).toThrow(/larger than 1 MB/);
  });

  it('says an empty body is empty', () => {
    expect(scan([Buffer.from('  ')]).empty).toBe(true);
  });

  it.each([
    ['"a string"', 'not a JSON object or array'],
    ['[{"taskId": 1}', 'cut short'],
    ['{"items": [{"taskId": 1}]', 'cut short'],
    ['{"items": [{"taskId": 1,}]}', 'not valid JSON'],
    ['[1] [2]', 'more than one JSON value'],
    ['{"a" 1}', 'colon'],
  ])('refuses %s', (text, words) => {
    expect(() => scan([Buffer.from(text)])).toThrow(UnreadableBodyError);
    expect(() => scan([Buffer.from(text)])).toThrow(words);
  });
});
