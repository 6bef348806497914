// The drafts workbench's pure parts: the import's per-row report, duplicate payloads, messages in
// the window's words, and the undo/redo history's merging.
import { describe, expect, it } from 'vitest';
import type { CampaignRecord } from '../../../../src/shared/ipc/contract';
import { EMPTY_HISTORY, recordStep, takeRedo, takeUndo } from '../../../../src/renderer/forms/draft-history';
import { fieldOfHeader, problemInWords } from '../../../../src/renderer/features/drafts/draft-fields';
import { campaignToPayload, draftsToCsv, readImport } from '../../../../src/renderer/features/drafts/draft-transfer';

describe('import report', () => {
  it('matches columns by field name or label, reports every problem of every row, and keeps no payload for a bad row', () => {
    const csv = [
      'name,Branding text,Bid strategy,CPC,budget,spending_limit,Status',
      'Boots,Acme,FIXED,0.4,MONTHLY,100,APPROVED',
      'Bad,Acme,FIXED,x,MONTHLY,100,',
      ',Acme,FIXED,,MONTHLY,100,',
    ].join('\n');
    const r = readImport(csv, 'ADVERTISER');
    expect(r.ignoredColumns).toEqual(['Status']);
    expect(r.rows.map((x) => [x.line, x.payload !== null])).toEqual([
      [2, true],
      [3, false],
      [4, false],
    ]);
    expect(r.rows[0].payload).toMatchObject({ name: 'Boots', cpc: 0.4, spending_limit_model: 'MONTHLY', spending_limit: 100 });
    expect(r.rows[1].problems).toEqual(['CPC: "x" is not a number. Write it like 0.35.', 'CPC is needed when Bidding is Fixed CPC.']);
    expect(r.rows[2].problems).toContain('Name: enter a value.');
  });

  it('reads pasted TSV with quoted cells, and says when there is no Name column', () => {
    const r = readImport('Name\tBranding text\tcpc\tSpending limit\n"Boots, winter"\tAcme\t0.5\t200\n');
    expect(r.rows[0].problems).toEqual(['Budget is needed with Spending limit.']);
    const ok = readImport('Name\tBranding text\tcpc\tSpending limit\tLimit model\n"Boots, winter"\tAcme\t0.5\t200\tMonthly\n');
    expect(ok.rows[0].payload).toMatchObject({ name: 'Boots, winter', cpc: 0.5, spending_limit_model: 'MONTHLY' });
    expect(readImport('cpc\n0.5').fileProblems[0]).toMatch(/No Name column/);
  });

  it('round-trips exported drafts', () => {
    const csv = draftsToCsv([
      {
        kind: 'campaign',
        id: 'd1',
        profileId: 'p',
        accountId: 'acme',
        payload: {
          name: 'A "quoted" one',
          branding_text: 'Acme',
          bid_strategy: 'FIXED',
          cpc: 0.3,
          marketing_objective: 'LEADS_GENERATION',
          spending_limit_model: 'MONTHLY',
          spending_limit: 50,
        },
        problems: [],
        updatedAt: 0,
        status: 'draft',
      },
    ]);
    const back = readImport(csv);
    expect(back.rows[0].problems).toEqual([]);
    expect(back.rows[0].payload).toMatchObject({ name: 'A "quoted" one', cpc: 0.3, marketing_objective: 'LEADS_GENERATION' });
  });

  it('knows the labels of the window and the interface names', () => {
    expect(fieldOfHeader('Creative surface')?.field).toBe('campaign_item_type');
    expect(fieldOfHeader(' spending_limit ')?.field).toBe('spending_limit');
    expect(fieldOfHeader('Spent')).toBeUndefined();
  });
});

describe('messages in the window words', () => {
  it('names fields by label and values in words', () => {
    expect(problemInWords({ field: 'cpc', message: 'cpc must be omitted when bid_strategy is MAX_CONVERSIONS' })).toBe(
      'CPC must be omitted when Bidding is Maximise conversions.',
    );
    expect(problemInWords({ field: 'name', message: 'name cannot be empty' })).toBe('Name: enter a value.');
  });
});

describe('duplicate', () => {
  it('copies the create fields, marks the name, leaves out the start and a surface that cannot be created', () => {
    const rec = {
      id: '7',
      account_id: 'acme',
      advertiser_id: null,
      advertiser_name: null,
      name: 'Winter',
      status: 'APPROVED',
      spent: 3,
      cpc: 0.2,
      daily_cap: null,
      spending_limit: 100,
      spending_limit_model: 'MONTHLY',
      bid_strategy: 'FIXED',
      marketing_objective: 'LEADS_GENERATION',
      pricing_model: 'CPC',
      start_date: '2026-01-01',
      campaign_item_type: 'HAS_DISPLAY_ITEMS',
      branding_text: 'Acme',
      campaign_group_id: null,
      fields: {
        id: '7',
        name: 'Winter',
        cpc: 0.2,
        spending_limit: 100,
        spending_limit_model: 'MONTHLY',
        bid_strategy: 'FIXED',
        marketing_objective: 'LEADS_GENERATION',
        start_date: '2026-01-01',
        campaign_item_type: 'HAS_DISPLAY_ITEMS',
        branding_text: 'Acme',
        tracking_code: 'utm=1',
        status: 'APPROVED',
      },
    } satisfies CampaignRecord;
    expect(campaignToPayload(rec)).toEqual({
      name: 'Winter (copy)',
      branding_text: 'Acme',
      tracking_code: 'utm=1',
      bid_strategy: 'FIXED',
      cpc: 0.2,
      marketing_objective: 'LEADS_GENERATION',
      spending_limit_model: 'MONTHLY',
      spending_limit: 100,
    });
  });
});

describe('history', () => {
  it('merges typing in one field, undoes and redoes whole steps, and forgets redo after a new step', () => {
    const a = (payload: object) => [{ id: 'd', payload }];
    let h = recordStep(EMPTY_HISTORY, { label: 'edit cpc', before: a({ cpc: 1 }), after: a({ cpc: 2 }), mergeKey: 'd:cpc' });
    h = recordStep(h, { label: 'edit cpc', before: a({ cpc: 2 }), after: a({ cpc: 25 }), mergeKey: 'd:cpc' });
    h = recordStep(h, { label: 'edit name', before: a({ name: 'x' }), after: a({ name: 'y' }), mergeKey: 'd:name' });
    expect(h.undo).toHaveLength(2);
    const u1 = takeUndo(h)!;
    expect(u1.step.label).toBe('edit name');
    const u2 = takeUndo(u1.next)!;
    expect(u2.step.before).toEqual(a({ cpc: 1 }));
    expect(u2.step.after).toEqual(a({ cpc: 25 }));
    const r = takeRedo(u2.next)!;
    expect(r.step.label).toBe('edit cpc');
    expect(recordStep(r.next, { label: 'bulk', before: [], after: [] }).redo).toEqual([]);
    expect(takeUndo(EMPTY_HISTORY)).toBeNull();
  });
});

describe('values the app does not know', () => {
  it("imports them as ready but says so, naming the nearest value the app knows under the form's label", () => {
    const r = readImport(
      'Name,Branding text,Bidding,CPC,Budget,Spending limit,Objective\nA,Acme,FIXED,0.4,WEEKLY,100,DRIVE_WEBSITE_TRAFFIC\nB,Acme,CHEAPEST,0.4,MONTHLY,100,DRIVE_WEBSITE_TRAFFIC\nC,Acme,FIXED,0.4,MONTHLY,100,DRIVE_WEBSITE_TRAFFIC\n',
    );
    expect(r.rows.map((x) => x.payload !== null)).toEqual([true, true, true]);
    expect(r.rows[0].notes).toEqual([
      'Budget: "WEEKLY" is not a value this app knows. It is kept, since the service may use it; did you mean Monthly?',
    ]);
    expect(r.rows[1].notes).toEqual([
      'Bidding: "CHEAPEST" is not a value this app knows. It is kept, since the service may use it; did you mean Fixed CPC?',
    ]);
    expect(r.rows[2].notes).toEqual([]);
  });

  it("does not note a value the account's campaigns show the service uses", () => {
    const r = readImport('Name,Branding text,CPC,Budget,Spending limit\nA,Acme,0.4,WEEKLY,100\n', 'ADVERTISER', {
      spending_limit_model: ['WEEKLY'],
    });
    expect(r.rows[0].notes).toEqual([]);
  });

  it("refuses a CPC no click costs, in the form's words", () => {
    const r = readImport('Name,Branding text,CPC,Budget,Spending limit\nA,Acme,1e9,MONTHLY,100\nB,Acme,1000,MONTHLY,100\n');
    expect(r.rows[0].problems).toEqual(['CPC 1,000,000,000 is more than 1,000 a click: check for a slipped digit.']);
    expect(r.rows[1].problems).toEqual([]);
  });
});
