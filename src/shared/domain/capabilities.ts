// Account capabilities (DECISIONS client 13): display campaigns, performance video campaigns and
// campaigns without a spending limit need an account enabled for them (spec 3.1, 4.1 rule 4), and
// the interface has no call that says which accounts are. The desk learns it from the service's
// refusals and successes, remembers it per account, and lets the person say so. What is known is
// shown before queueing, as a warning: the choice stays the person's.
// Pure TypeScript and zod: used by main (learning, the draft check) and the renderer (the editor).
import { z } from 'zod';
import type { CampaignCreate } from './campaign';

export const CAPABILITIES = ['display', 'performance_video', 'no_spending_limit'] as const;
export type Capability = (typeof CAPABILITIES)[number];

/** No record means unknown; a record says enabled or refused, learned from the service or said by the person. */
export const CAPABILITY_STATES = ['unknown', 'enabled', 'refused'] as const;
export type CapabilityState = (typeof CAPABILITY_STATES)[number];

export const capabilityRecordSchema = z.object({
  capability: z.enum(CAPABILITIES),
  state: z.enum(['enabled', 'refused']),
  source: z.enum(['learned', 'person']),
  /** The service's words when it refused; null when the person said so or a create succeeded. */
  message: z.string().nullable(),
  /** When it was learned or said (ms). */
  at: z.number().int(),
});
export type CapabilityRecord = z.infer<typeof capabilityRecordSchema>;

/** What the window calls each capability, as the object of "refused ..." or "enabled for ...". */
export const CAPABILITY_NOUNS: Readonly<Record<Capability, string>> = {
  display: 'display campaigns',
  performance_video: 'performance video campaigns',
  no_spending_limit: 'campaigns without a spending limit',
};

/** The change that avoids a capability, said as the end of "Queue anyway, or ...". */
const AVOID: Readonly<Record<Capability, string>> = {
  display: 'change the campaign type',
  performance_video: 'change the campaign type',
  no_spending_limit: 'choose a monthly spending limit',
};

const ITEM_TYPE_OF: Readonly<Record<string, Capability>> = {
  HAS_NO_ITEMS_DISPLAY: 'display',
  HAS_NO_ITEMS_PERFORMANCE_DISPLAY_VIDEO: 'performance_video',
};

/** The capabilities a create body needs the account to have. */
export function capabilitiesUsedBy(body: Partial<CampaignCreate>): Capability[] {
  const out: Capability[] = [];
  const surface = body.campaign_item_type === undefined ? undefined : ITEM_TYPE_OF[body.campaign_item_type];
  if (surface) out.push(surface);
  if (body.spending_limit_model === 'NONE') out.push('no_spending_limit');
  return out;
}

/** What a refusal said: the service's words, and the fields it named when it named any. */
export interface Refusal {
  message: string;
  status?: number;
  fields?: readonly string[];
}

// Services say "not enabled for", "not eligible", "isn't allowed", "FEATURE_NOT_ENABLED",
// "requires ... to be enabled", "ineligible", "not available for this account"... Matched on the
// words, with codes' underscores read as spaces, so wording other than our sandbox's is learned too.
const SAYS_NOT_ALLOWED = new RegExp(
  [
    String.raw`\b(not|never|cannot|can ?not|unable|no longer|isn ?t|is not|aren ?t)\b[^.]{0,60}\b(enabled|eligible|allowed|permitted|available|authori[sz]ed|supported|entitled|activated|approved|whitelisted|allowlisted)\b`,
    String.raw`\b(ineligible|disabled|unsupported|not eligible|prohibited|restricted|denied)\b`,
    String.raw`\brequires?\b[^.]{0,80}\b(enabled|enablement|eligib\w*|permission|access|activation|approval)\b`,
    String.raw`\bonly\b[^.]{0,40}\b(eligible|enabled|approved)\b`,
  ].join('|'),
);
/** Words that say a refusal is about what the account may use, not about the request's values. */
const SAYS_CAPABILITY = /\b(feature|features|capabilit\w*|eligib\w*|enabled for|campaign types?|type of campaign|product|entitle\w*)\b/;

const MENTIONS: Readonly<Record<Capability, RegExp>> = {
  display: /\bdisplay\b(?![^.]{0,20}\bvideo\b)|has no items display\b/,
  performance_video: /\bvideo\b|\bperformance\b/,
  no_spending_limit: /\bspending limit model\b|\bspending limit\b|\bno limit\b|\bunlimited\b|\bnone\b|\bno spending\b/,
};

const FIELD_OF: Readonly<Record<Capability, string>> = {
  display: 'campaign_item_type',
  performance_video: 'campaign_item_type',
  no_spending_limit: 'spending_limit_model',
};

/** Message text as words: lower case, codes' and field names' underscores as spaces, apostrophes gone. */
const asWords = (s: string) =>
  s
    .toLowerCase()
    .replace(/[_'’]/g, (c) => (c === '_' ? ' ' : ''))
    .replace(/\s+/g, ' ');

/**
 * Which capability a refused create was refused for, or undefined when the refusal is about
 * something else (or cannot be told apart). Only a capability the body used can be the reason; a
 * refusal that names one of them (or the field that carries it) and says it is not allowed is
 * taken as that capability's. A refusal that only says "not eligible for this feature" is taken
 * for the one capability the body used, never guessed between two.
 */
export function refusedCapability(body: Partial<CampaignCreate>, refusal: Refusal): Capability | undefined {
  if (refusal.status !== undefined && ![400, 403, 409, 422].includes(refusal.status)) return undefined;
  const used = capabilitiesUsedBy(body);
  if (used.length === 0) return undefined;
  const text = asWords(refusal.message);
  if (!SAYS_NOT_ALLOWED.test(text)) return undefined;
  const named = used.filter((c) => MENTIONS[c].test(text));
  if (named.length === 1) return named[0];
  const byField = used.filter((c) => (refusal.fields ?? []).includes(FIELD_OF[c]) || text.includes(FIELD_OF[c].replace(/_/g, ' ')));
  if (byField.length === 1) return byField[0];
  if (named.length === 0 && used.length === 1 && SAYS_CAPABILITY.test(text)) return used[0];
  return undefined;
}

/** "Nov 23" (with the year when it is not this year's). */
export function shortDate(ms: number, now: number): string {
  const d = new Date(ms);
  const sameYear = d.getFullYear() === new Date(now).getFullYear();
  return d.toLocaleDateString('en-US', sameYear ? { month: 'short', day: 'numeric' } : { month: 'short', day: 'numeric', year: 'numeric' });
}

const sentence = (s: string) => {
  const t = s.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
};

export interface CapabilityWarning {
  capability: Capability;
  /** The form field a person changes to avoid it. */
  field: string;
  /** What is known ("Fresh Crumb Bakery refused display campaigns on Nov 23: ..."). */
  known: string;
  /** `known` and what the person can do about it. */
  message: string;
}

/**
 * What is known against a draft before it is queued: for each capability it uses that the account
 * refused (or the person said it does not have), one warning in the window's words. Never a
 * problem: the service may have changed its mind, and queueing stays possible.
 */
export function capabilityWarnings(
  body: Partial<CampaignCreate>,
  known: readonly CapabilityRecord[],
  accountName: string,
  now: number,
): CapabilityWarning[] {
  const out: CapabilityWarning[] = [];
  for (const c of capabilitiesUsedBy(body)) {
    const rec = known.find((k) => k.capability === c);
    if (rec?.state !== 'refused') continue;
    const when = shortDate(rec.at, now);
    const what = CAPABILITY_NOUNS[c];
    const head =
      rec.source === 'learned'
        ? `${accountName} refused ${what} on ${when}${rec.message ? `: ${sentence(rec.message)}` : '.'}`
        : `You said ${accountName} is not enabled for ${what} (${when}).`;
    out.push({
      capability: c,
      field: FIELD_OF[c] === 'spending_limit_model' ? 'budget' : FIELD_OF[c],
      known: head,
      message: `${head} Queue anyway, or ${AVOID[c]}.`,
    });
  }
  return out;
}

/** One line about a capability for the account settings and the editor's choices ("Refused on Nov 23"). */
export function capabilityStatus(rec: CapabilityRecord | undefined, now: number): string {
  if (!rec) return 'Not known yet';
  const when = shortDate(rec.at, now);
  if (rec.state === 'enabled') return rec.source === 'person' ? `Enabled (you said so on ${when})` : `Enabled (posted on ${when})`;
  return rec.source === 'person' ? `Not enabled (you said so on ${when})` : `Refused by the service on ${when}`;
}

/** What the window gets for one account: its name (for the warnings' words) and what is known. */
export const accountCapabilitiesSchema = z.object({
  accountName: z.string(),
  capabilities: z.array(capabilityRecordSchema),
});
export type AccountCapabilities = z.infer<typeof accountCapabilitiesSchema>;
