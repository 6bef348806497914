import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendNoteRef } from '../../../src/main/sync/send-notes';
import { ACME, createWork as create, openTestStore, seed, type TestStore } from './helpers';

let t: TestStore;
beforeEach(() => {
  t = openTestStore();
  seed(t.store);
});
afterEach(() => t.cleanup());

describe('send notes (what is known about an item before it is sent)', () => {
  it('are stored in the database with their item, survive a reopen and count only for the item they were written for', async () => {
    const item = t.store.outbox.enqueue({ ...ACME, ...create('a') });
    const note = { seq: item.seq, clientRef: 'ref-a', firstSentAt: 10, lastSentAt: 20, baseline: ['7', '9'] };
    t.store.sendNotes.put(note);
    await t.reopen();
    expect(t.store.sendNotes.get(item.seq, 'ref-a')).toEqual(note);
    // Another item that reused the number (a replaced database) does not inherit it.
    expect(t.store.sendNotes.get(item.seq, 'ref-other')).toBeUndefined();
    t.store.sendNotes.put({ ...note, lastSentAt: 30 });
    expect(t.store.sendNotes.get(item.seq, 'ref-a')?.lastSentAt).toBe(30);
  });

  it('go away with their outbox item, and prune keeps only those of items still in flight', () => {
    const [a, b, c] = ['a', 'b', 'c'].map((n) => t.store.outbox.enqueue({ ...ACME, ...create(n) }));
    for (const item of [a, b, c]) {
      t.store.sendNotes.put({ seq: item.seq, clientRef: sendNoteRef(item), firstSentAt: 1, lastSentAt: 1, baseline: [] });
    }
    t.store.outbox.remove(a.seq);
    expect(t.store.sendNotes.get(a.seq, 'ref-a')).toBeUndefined();
    t.store.sendNotes.prune((seq) => seq !== b.seq);
    expect(t.store.sendNotes.get(b.seq, 'ref-b')).toBeUndefined();
    expect(t.store.sendNotes.get(c.seq, 'ref-c')).toBeDefined();
  });

  it('refuse a note for an item that does not exist', () => {
    expect(() => t.store.sendNotes.put({ seq: 999, clientRef: 'x', firstSentAt: 1, lastSentAt: 1, baseline: [] })).toThrow();
  });

  it('treat an unreadable baseline as empty, so the item is still looked for rather than resent blindly', async () => {
    const item = t.store.outbox.enqueue({ ...ACME, ...create('a') });
    t.store.sendNotes.put({ seq: item.seq, clientRef: 'ref-a', firstSentAt: 1, lastSentAt: 2, baseline: ['1'] });
    t.store.close();
    const raw = new Database(t.file);
    raw.prepare("UPDATE send_notes SET baseline = '[1, 2]' WHERE seq = ?").run(item.seq);
    raw.close();
    await t.reopen();
    expect(t.store.sendNotes.get(item.seq, 'ref-a')).toMatchObject({ lastSentAt: 2, baseline: [] });
  });
});
