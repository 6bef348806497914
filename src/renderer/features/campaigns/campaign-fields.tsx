// Every field of a campaign the window can show (spec 2.1), with its label, the way its value is
// written, and the column width it starts with. Fields the app does not know are shown in the
// details pane under their own names (campaign-details.tsx).
import type { CampaignRecord } from '../../../shared/ipc/contract';
import { enumLabel } from '../../lib/enum-labels';
import { DASH, formatDate, formatMoney } from '../../lib/format';
import { StatusBadge } from './status-badge';

export type FieldKind = 'text' | 'money' | 'enum' | 'date' | 'status' | 'json';

export interface CampaignField {
  id: string;
  label: string;
  kind: FieldKind;
  width: number;
}

export const CAMPAIGN_FIELDS: readonly CampaignField[] = [
  // Widths fit the longest label the window writes in each ("Pending approval" with its dot,
  // "Maximise conversions", a date, an eight-digit id) in the window's 13 px font.
  { id: 'name', label: 'Name', kind: 'text', width: 170 },
  { id: 'advertiser_name', label: 'Advertiser', kind: 'text', width: 140 },
  { id: 'advertiser_id', label: 'Advertiser ID', kind: 'text', width: 120 },
  { id: 'status', label: 'Status', kind: 'status', width: 140 },
  { id: 'spent', label: 'Spent', kind: 'money', width: 90 },
  { id: 'cpc', label: 'CPC', kind: 'money', width: 64 },
  { id: 'daily_cap', label: 'Daily cap', kind: 'money', width: 84 },
  { id: 'spending_limit', label: 'Spending limit', kind: 'money', width: 120 },
  { id: 'spending_limit_model', label: 'Limit model', kind: 'enum', width: 110 },
  { id: 'bid_strategy', label: 'Bidding', kind: 'enum', width: 166 },
  { id: 'marketing_objective', label: 'Objective', kind: 'enum', width: 156 },
  { id: 'pricing_model', label: 'Pricing', kind: 'enum', width: 110 },
  { id: 'campaign_item_type', label: 'Creative surface', kind: 'enum', width: 220 },
  { id: 'daily_ad_delivery_model', label: 'Delivery model', kind: 'enum', width: 120 },
  { id: 'tracking_code', label: 'Tracking code', kind: 'text', width: 180 },
  { id: 'branding_text', label: 'Branding text', kind: 'text', width: 140 },
  { id: 'campaign_group_id', label: 'Campaign group', kind: 'text', width: 130 },
  { id: 'safety_rating', label: 'Safety rating', kind: 'json', width: 110 },
  { id: 'start_date', label: 'Start', kind: 'date', width: 96 },
  { id: 'id', label: 'ID', kind: 'text', width: 84 },
];

export const FIELD_BY_ID = new Map(CAMPAIGN_FIELDS.map((f) => [f.id, f]));

/**
 * The narrowest a column may be made, by what it holds: an amount like "12,345.67", a status badge,
 * an enum's shortest words, a date. Below these a column shows only "..." and looks broken. Name
 * is the one a person reads rows by, so it keeps room for a few words however many columns are added.
 */
const MIN_WIDTH_BY_KIND: Readonly<Record<FieldKind, number>> = { text: 80, money: 64, enum: 90, date: 90, status: 110, json: 80 };
const NAME_MIN_WIDTH = 150;

export function minWidthOf(id: string): number {
  if (id === 'name') return NAME_MIN_WIDTH;
  const f = FIELD_BY_ID.get(id);
  return f ? MIN_WIDTH_BY_KIND[f.kind] : MIN_WIDTH_BY_KIND.text;
}

/**
 * What an advertiser account shows before anyone chooses. With the pick column they add up to
 * 772 px, within the grid's width in a 1024 px window (sidebar 220 px, a 15 px scrollbar), so Start
 * and ID are never cut; Bidding is one tick away in Columns. A network shows the advertiser instead of
 * CPC and Daily cap, for the same width.
 */
export const DEFAULT_COLUMN_IDS = ['name', 'status', 'spent', 'cpc', 'daily_cap', 'start_date', 'id'];
export const DEFAULT_NETWORK_COLUMN_IDS = ['name', 'advertiser_name', 'status', 'spent', 'start_date', 'id'];

/** A field's value as the service sent it (unknown fields come from `fields`). */
export function rawValue(rec: CampaignRecord, id: string): unknown {
  if (id in rec.fields) return rec.fields[id];
  return (rec as unknown as Record<string, unknown>)[id];
}

/** A value as plain text, the way copies and exports write it: raw enum values, plain numbers. */
export function plainText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** A value for the eye: labels for enums (raw value on hover), money, dates, a dash when missing. */
export function FieldValue({ kind, value }: { kind: FieldKind; value: unknown }) {
  if (value === null || value === undefined || value === '') return <>{DASH}</>;
  if (kind === 'status') return <StatusBadge status={typeof value === 'string' ? value : plainText(value)} />;
  if (kind === 'money' && typeof value === 'number') return <>{formatMoney(value)}</>;
  if (kind === 'date' && typeof value === 'string') return <span title={value}>{formatDate(value)}</span>;
  if (kind === 'enum' && typeof value === 'string') return <span title={value}>{enumLabel(value)}</span>;
  const text = plainText(value);
  return <span title={text}>{text}</span>;
}
