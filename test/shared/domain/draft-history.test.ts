// The kept undo history stays inside its bounds by dropping the oldest steps first, and what it
// keeps still parses with the contract's schema (the core refuses a history that does not).
import { describe, expect, it } from 'vitest';
import { boundDraftHistory, DRAFT_HISTORY_KEPT, draftHistorySchema, withoutDraftHistory } from '../../../src/shared/domain/draft-history';
import { MAX_BODY_BYTES } from '../../../src/shared/ipc/wire';

const step = (label: string, bytes = 10) => ({
  label,
  before: [{ id: 'd1', payload: { name: 'x'.repeat(bytes) } }],
  after: [{ id: 'd1', payload: null }],
});

describe('boundDraftHistory', () => {
  it('keeps the newest steps of each stack up to the step limit', () => {
    const many = Array.from({ length: DRAFT_HISTORY_KEPT.steps + 7 }, (_, i) => step(`s${i}`));
    const out = boundDraftHistory({ undo: many, redo: many.slice(0, 3) });
    expect(out.undo).toHaveLength(DRAFT_HISTORY_KEPT.steps);
    expect(out.undo[0].label).toBe('s7');
    expect(out.undo.at(-1)?.label).toBe(`s${DRAFT_HISTORY_KEPT.steps + 6}`);
    expect(out.redo.map((s) => s.label)).toEqual(['s0', 's1', 's2']);
    expect(draftHistorySchema.safeParse(out).success).toBe(true);
  });

  it('drops the oldest undo steps first when the payloads are too big, then the redo steps furthest from the top', () => {
    const big = Math.floor(DRAFT_HISTORY_KEPT.bytes / 4);
    const out = boundDraftHistory({
      undo: [step('old', big), step('mid', big), step('new', big)],
      redo: [step('far', big), step('near', big)],
    });
    // Five quarters do not fit: the two oldest undo steps go, the redo stack is untouched.
    expect(out.undo.map((s) => s.label)).toEqual(['new']);
    expect(out.redo.map((s) => s.label)).toEqual(['far', 'near']);
    expect(JSON.stringify(out).length).toBeLessThanOrEqual(DRAFT_HISTORY_KEPT.bytes);
    // Redo steps go only once undo is empty, the one furthest from the top first.
    const redoOnly = boundDraftHistory({
      undo: [],
      redo: [step('a', big), step('b', big), step('c', big), step('d', big), step('e', big)],
    });
    expect(redoOnly.redo.map((s) => s.label)).toEqual(['c', 'd', 'e']);
    expect(JSON.stringify(redoOnly).length).toBeLessThanOrEqual(DRAFT_HISTORY_KEPT.bytes);
  });
});

describe('withoutDraftHistory', () => {
  it('drops the removed account, or every account of a removed connection, and nothing else', () => {
    const kept = { 'p1/acme': 1, 'p1/bikes': 2, 'p10/acme': 3 };
    expect(withoutDraftHistory(kept, { profileId: 'p1', accountId: 'acme' })).toEqual({ 'p1/bikes': 2, 'p10/acme': 3 });
    expect(withoutDraftHistory(kept, { profileId: 'p1' })).toEqual({ 'p10/acme': 3 });
  });
  it('keeps the history within half of what one browser-mode request may carry', () => {
    expect(DRAFT_HISTORY_KEPT.bytes).toBeLessThanOrEqual(MAX_BODY_BYTES / 2);
  });
});
