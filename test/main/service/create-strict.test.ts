// What the client sends is what the interface shows: a field a draft holds as null ("none") is
// left out of the create (spec 4.1 rule 4: "omit spending_limit"), so a service that refuses a
// null member (refuse_null) creates the campaign as one that takes null as omitted does.
import { expect, it } from 'vitest';
import type { ServiceClient } from '../../../src/main/service/service-client';
import { type RunningSandbox } from '../../../src/sandbox/index';
import { variantLabel } from '../../helpers/variants';
import { clientPerFile, createAndRead } from '../../helpers/service-client';

let sb: RunningSandbox;
let client: ServiceClient;

clientPerFile(
  (s, c) => {
    sb = s;
    client = c;
  },
  { variants: { refuse_null: true } },
);

it(`creates from drafts holding nulls, sending none of them (${variantLabel()})`, async () => {
  const noLimit = await createAndRead(client, sb, 'acmeshoes', {
    name: 'No limit',
    branding_text: 'Acme Shoes',
    bid_strategy: 'MAX_CONVERSIONS',
    cpc: null,
    marketing_objective: 'LEADS_GENERATION',
    spending_limit_model: 'NONE',
    spending_limit: null,
    daily_cap: 40,
  });
  expect(noLimit).toMatchObject({ name: 'No limit', daily_cap: 40 });
  // null, or left out by a service that omits empty fields.
  expect(noLimit.spending_limit ?? null).toBeNull();
  const monthly = await createAndRead(client, sb, 'acmeshoes', {
    name: 'Monthly',
    branding_text: 'Acme Shoes',
    bid_strategy: 'FIXED',
    cpc: 0.5,
    marketing_objective: 'LEADS_GENERATION',
    spending_limit_model: 'MONTHLY',
    spending_limit: 800,
    daily_cap: null,
  });
  expect(monthly).toMatchObject({ name: 'Monthly', cpc: 0.5, spending_limit: 800 });
});
