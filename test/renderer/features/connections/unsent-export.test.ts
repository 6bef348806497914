// What a person keeps before a removal: the campaigns among the unsent changes as the drafts' CSV
// (Drafts > Import reads it back, field for field), every change as JSON, under a file name any
// file system takes.
import { describe, expect, it } from 'vitest';
import type { UnsentItem } from '../../../../src/shared/domain/unsent';
import { readImport } from '../../../../src/renderer/features/drafts/draft-transfer';
import { campaignCount, exportFileName, unsentToCsv, unsentToJson } from '../../../../src/renderer/features/connections/unsent-export';

const campaign = {
  name: 'Winter boots, "warm"',
  branding_text: 'Acme',
  bid_strategy: 'FIXED',
  cpc: 0.35,
  spending_limit: 1500,
  spending_limit_model: 'MONTHLY',
  marketing_objective: 'DRIVE_WEBSITE_TRAFFIC',
};
const items: UnsentItem[] = [
  {
    id: 'd1',
    source: 'draft',
    group: 'draft',
    kind: 'campaign',
    accountId: 'acmeshoes',
    summary: 'Campaign draft',
    words: null,
    problems: [],
    payload: campaign,
    updatedAt: 1,
  },
  {
    id: '7',
    source: 'outbox',
    group: 'failed',
    kind: 'campaign',
    accountId: 'acmeshoes',
    summary: 'Create campaign "Sandals"',
    words: 'Refused',
    problems: [],
    payload: { ...campaign, name: 'Sandals', cpc: 0.5 },
    updatedAt: 2,
  },
  {
    id: 'd2',
    source: 'draft',
    group: 'draft',
    kind: 'push',
    accountId: 'acmeshoes',
    summary: 'Push draft "Sale"',
    words: null,
    problems: [],
    payload: { mode: 'immediate', event: { title: 'Sale' } },
    updatedAt: 3,
  },
];

describe('unsent export', () => {
  it('writes the campaigns as the drafts CSV, which the import reads back unchanged', () => {
    expect(campaignCount(items)).toBe(2);
    const report = readImport(unsentToCsv(items), 'ADVERTISER');
    expect(report.fileProblems).toEqual([]);
    expect(report.rows.map((r) => r.problems)).toEqual([[], []]);
    expect(report.rows.map((r) => r.payload)).toEqual([
      expect.objectContaining(campaign),
      expect.objectContaining({ name: 'Sandals', cpc: 0.5 }),
    ]);
  });

  it('writes every change as JSON with its state and payload', () => {
    const body = JSON.parse(unsentToJson(items, { connection: 'Agency', account: 'Acme Shoes' }, Date.UTC(2026, 10, 26))) as Record<
      string,
      unknown
    >;
    expect(body).toMatchObject({ exportedAt: '2026-11-26T00:00:00.000Z', connection: 'Agency', account: 'Acme Shoes' });
    expect(body.changes).toEqual([
      expect.objectContaining({ state: 'draft', kind: 'campaign', payload: campaign }),
      expect.objectContaining({ state: 'failed', kind: 'campaign', words: 'Refused' }),
      expect.objectContaining({ state: 'draft', kind: 'push', payload: { mode: 'immediate', event: { title: 'Sale' } } }),
    ]);
  });

  it("says a draft's problems under the window's labels, after the service's words, never in the interface's names", () => {
    const draft: UnsentItem = {
      ...items[0],
      words: 'The service refused it: limit too low',
      problems: [{ field: 'spending_limit', message: 'spending_limit is required when spending_limit_model is MONTHLY' }],
    };
    const body = JSON.parse(unsentToJson([draft], { connection: 'Agency' }, 0)) as { changes: { words: string }[] };
    expect(body.changes[0].words).toBe('The service refused it: limit too low · Spending limit is needed when Budget is Monthly.');
  });

  it('names the file after what is removed, letters of any script, digits, spaces as dashes', () => {
    expect(exportFileName('Acme Shoes / UK: "main"', 'csv', Date.UTC(2026, 10, 26))).toBe('Acme-Shoes-UK-main-unsent-2026-11-26.csv');
    expect(exportFileName('Café Müller', 'csv', Date.UTC(2026, 10, 26))).toBe('Café-Müller-unsent-2026-11-26.csv');
    expect(exportFileName('***', 'json', Date.UTC(2026, 10, 26))).toBe('campaign-desk-unsent-2026-11-26.json');
  });
});
