// A service may write its date-times in any ISO 8601 spelling (the interface shows none), or as
// epoch milliseconds. The client reads them all as the instant they name, whatever the computer's
// own time zone: a created campaign is recognised in the listing by its start date (the look-up
// after a lost answer), and the cache holds one form it can sort and show.
import { afterEach, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../../src/main/service/service-client';
import { campaignMatchesCreate } from '../../../src/main/sync/signature';
import type { CampaignCreate } from '../../../src/shared/domain/campaign';
import { DATE_FORMS, type RunningSandbox, type Variants } from '../../../src/sandbox/index';
import { testVariants, variantLabel } from '../../helpers/variants';
import { playVariants } from '../../helpers/sandbox';
import { clientPerFile, createAndRead } from '../../helpers/service-client';

let sb: RunningSandbox;
let client: ServiceClient;
const zoneBefore = process.env.TZ;

clientPerFile((s, c) => {
  sb = s;
  client = c;
});

afterEach(() => {
  if (zoneBefore === undefined) delete process.env.TZ;
  else process.env.TZ = zoneBefore;
});

const body = (start: string): CampaignCreate => ({
  name: 'Dated campaign',
  branding_text: 'Old Timer',
  cpc: 0.4,
  spending_limit: 900,
  spending_limit_model: 'MONTHLY',
  bid_strategy: 'FIXED',
  marketing_objective: 'LEADS_GENERATION',
  start_date: start,
});

const play = (extra: Variants) => playVariants(sb, extra);

/** Creates through the client, then reads the campaign back from a listing. */
async function createAndList(start: string) {
  const created = await createAndRead(client, sb, 'oldtimerltd', body(start));
  const page = await client.listCampaigns('oldtimerltd', { fetchLevel: 'RAP', campaignIds: [created.id] });
  expect(page.campaigns).toHaveLength(1);
  return { created, listed: page.campaigns[0] };
}

describe(`date-times in any spelling (${variantLabel()})`, () => {
  // Far from UTC, and not a whole hour: a date-time read as local time is off by 13 h 45 min.
  const zones = ['Pacific/Chatham', 'America/Los_Angeles'];
  for (const form of DATE_FORMS) {
    for (const offset of [undefined, '+05:30']) {
      it(`${form}${offset ? ` at ${offset}` : ''}: the listed campaign is the one created, and its start is the instant sent`, async () => {
        await play({ date_form: form, ...(offset ? { date_offset: offset } : {}) });
        const start = '2026-12-01T10:15:30.000Z';
        for (const zone of zones) {
          process.env.TZ = zone;
          const { created, listed } = await createAndList(start);
          expect(campaignMatchesCreate(listed, body(start)), `${zone}: ${String(listed.start_date)}`).toBe(true);
          expect(campaignMatchesCreate(created, body(start))).toBe(true);
          // Another start a minute later is not the same campaign, whatever the spelling.
          expect(campaignMatchesCreate(listed, body('2026-12-01T10:17:00.000Z'))).toBe(false);
          if (form === 'no_zone') {
            // A wall time without its offset is kept as written: no zone can be assumed for it.
            expect(listed.start_date).toMatch(/^2026-12-01T\d\d:\d\d:30\.000$/);
          } else {
            // One form in the cache: ISO 8601 in UTC, which sorts as text and reads the same everywhere.
            const instant = form === 'minutes' ? '2026-12-01T10:15Z' : start;
            expect(listed.start_date).toBe(instant);
            // A create answer that leaves out what was sent (create_answer sparse) is read with
            // the sent start: the same instant, to the millisecond the person gave. A create
            // answered without a body (write_answer) is read from the listing, as listed.
            const sentStart = testVariants()?.create_answer === 'sparse' && testVariants()?.write_answer === undefined;
            expect(created.start_date).toBe(sentStart ? start : instant);
          }
        }
      });
    }
  }
});
