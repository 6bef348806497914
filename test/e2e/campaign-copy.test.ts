// Multi-select and copy (issue 16): 50 rows picked with a click and a Shift+click, Ctrl+C, and the
// clipboard parsed as a spreadsheet would (papaparse, tab-separated) holds exactly those campaigns
// with the values the service has; Ctrl+click adds and removes one; the filtered view exports as
// CSV with every matching campaign. The extra campaigns are created on the sandbox the way any
// client would (POST), so the account holds more than 50.
import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, nativeCampaign, tokenFor } from '../helpers/sandbox';
import { demoClient, openApp, openAccount, unlimitedAdvertiser, type AppSession } from './app-session';

const account = unlimitedAdvertiser();
const ROW = 28;
let app: AppSession;

interface ServiceCampaign {
  id: string;
  name: string;
  status: string;
  spent: number;
}

async function serviceCampaigns(): Promise<Map<string, ServiceCampaign>> {
  const token = await tokenFor({ url: app.sandboxUrl }, demoClient.client_id, demoClient.client_secret);
  const res = await call(
    { url: app.sandboxUrl },
    'GET',
    `/core/api/1.0/${account.account_id}/campaigns?fetch_level=RAP&page=1&page_size=1000`,
    { token },
  );
  const body = res.body as { results: ServiceCampaign[] };
  return new Map(body.results.map((c) => [String(c.id), c]));
}

beforeAll(async () => {
  app = await openApp();
  await app.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(app.page.url()).origin });
  const token = await tokenFor({ url: app.sandboxUrl }, demoClient.client_id, demoClient.client_secret);
  for (let i = 0; i < 30; i++) {
    const r = await call({ url: app.sandboxUrl }, 'POST', `/core/api/1.0/${account.account_id}/campaigns/`, {
      token,
      json: nativeCampaign({ name: `Copy test ${String(i).padStart(2, '0')}` }),
    });
    expect(r.status).toBe(200);
  }
});

afterAll(async () => {
  await app?.close();
});

describe('picking campaigns and copying them', () => {
  it('copies 50 picked rows as TSV that a CSV parser reads back with the service values', async () => {
    const { page } = app;
    await openAccount(page, account.account_id);
    await page.getByTestId('refresh-button').click();
    const service = await serviceCampaigns();
    expect(service.size).toBeGreaterThanOrEqual(50);
    await expect.poll(() => page.getByTestId('campaign-count').textContent(), { timeout: 30_000 }).toBe(`${service.size} campaigns`);

    const grid = page.getByTestId('campaign-grid');
    await grid.locator('[aria-rowindex="2"]').click();
    await grid.evaluate((el, top) => (el.scrollTop = top), 40 * ROW);
    const last = grid.locator('[aria-rowindex="51"]');
    await last.waitFor();
    await last.click({ modifiers: ['Shift'] });
    await expect.poll(() => page.getByTestId('picked-count').textContent()).toBe('50 selected');
    expect(await grid.locator('[data-testid="row-pick"]:checked').count()).toBeGreaterThan(5);

    await page.keyboard.press('Control+c');
    await expect.poll(() => page.getByTestId('selection-note').textContent()).toContain('Copied 50 campaigns');
    const text = await page.evaluate(() => navigator.clipboard.readText());
    const parsed = Papa.parse<string[]>(text, { delimiter: '\t', skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    const [header, ...rows] = parsed.data;
    expect(header).toEqual(['Name', 'Status', 'Spent', 'CPC', 'Daily cap', 'Start', 'ID']);
    expect(rows).toHaveLength(50);
    const col = (name: string) => header.indexOf(name);
    const ids = new Set<string>();
    for (const r of rows) {
      const c = service.get(r[col('ID')]);
      expect(c, `row ${r.join(' | ')}`).toBeDefined();
      expect(r[col('Name')]).toBe(c!.name);
      expect(r[col('Status')]).toBe(c!.status);
      expect(Number(r[col('Spent')])).toBe(c!.spent);
      ids.add(r[col('ID')]);
    }
    expect(ids.size).toBe(50);
  });

  it('adds and removes single rows with Ctrl+click, and exports the filtered view as CSV', async () => {
    const { page } = app;
    const grid = page.getByTestId('campaign-grid');
    const row = grid.locator('[aria-rowindex="51"]');
    await row.click({ modifiers: ['Control'] });
    await expect.poll(() => page.getByTestId('picked-count').textContent()).toBe('49 selected');
    await row.click({ modifiers: ['Control'] });
    await expect.poll(() => page.getByTestId('picked-count').textContent()).toBe('50 selected');

    await page.getByTestId('campaign-search').fill('Copy test');
    await expect.poll(() => page.getByTestId('campaign-count').textContent()).toBe('30 campaigns match');
    await page.getByTestId('pick-all').click();
    await expect.poll(() => page.getByTestId('picked-count').textContent()).toBe('30 selected');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
    const csv = readFileSync((await download.path())!, 'utf8');
    const parsed = Papa.parse<string[]>(csv.replace(/^\uFEFF/, ''), { skipEmptyLines: true });
    const [header, ...rows] = parsed.data;
    expect(header[0]).toBe('Name');
    expect(rows.map((r) => r[0]).sort()).toEqual(Array.from({ length: 30 }, (_, i) => `Copy test ${String(i).padStart(2, '0')}`));
  });
});
