// Version 1: profiles, accounts and the read caches (campaigns, apps, tasks) plus the activity log.
// Frozen once released: later changes go in a new numbered file. The SQL is written out in full
// (not generated from shared constants) so that changing a constant can never change history.
import type { Migration } from '../migrate';

export const migration001: Migration = {
  version: 1,
  name: 'initial',
  up: `
CREATE TABLE profiles (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL CHECK (length(trim(name)) > 0),
  base_url TEXT NOT NULL,
  auth_url TEXT NOT NULL,
  push_url TEXT NOT NULL,
  client_id TEXT NOT NULL CHECK (length(client_id) > 0),
  flow TEXT NOT NULL CHECK (flow IN ('client_credentials', 'authorization_code')),
  redirect_uri TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  CHECK (flow = 'client_credentials' OR redirect_uri IS NOT NULL),
  -- A URL with user:password@ would put a credential on disk: secrets live in the keychain only.
  CHECK (base_url NOT GLOB '*://*@*' AND auth_url NOT GLOB '*://*@*' AND push_url NOT GLOB '*://*@*'
         AND coalesce(redirect_uri, '') NOT GLOB '*://*@*')
) STRICT;

CREATE TABLE accounts (
  account_key INTEGER PRIMARY KEY,
  profile_id TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
  account_id TEXT NOT NULL CHECK (length(account_id) > 0),
  name TEXT,
  type TEXT NOT NULL CHECK (type IN ('ADVERTISER', 'NETWORK')),
  network_id TEXT,
  online_state TEXT NOT NULL DEFAULT 'unknown' CHECK (online_state IN ('unknown', 'online', 'offline')),
  work_offline INTEGER NOT NULL DEFAULT 0 CHECK (work_offline IN (0, 1)),
  last_error TEXT CHECK (last_error IS NULL OR json_valid(last_error)),
  verified_at INTEGER,
  last_synced_at INTEGER,
  added_at INTEGER NOT NULL,
  UNIQUE (profile_id, account_id)
) STRICT;

-- Campaigns as listed under an account (for a network: every member's campaigns), clustered by
-- (account, id) so one account's rows sit together. Every field of spec 2.1 has a column for
-- sorting and filtering; "present" records which of them the service sent (bit i = field i of
-- CAMPAIGN_FIELDS) and "extra" holds every other field as JSON, so the object as received is
-- rebuilt exactly and unknown fields survive.
CREATE TABLE campaigns (
  account_key INTEGER NOT NULL REFERENCES accounts(account_key) ON DELETE CASCADE,
  id_num INTEGER NOT NULL,
  id TEXT NOT NULL,
  advertiser_id TEXT COLLATE NOCASE,
  advertiser_name TEXT COLLATE NOCASE,
  name TEXT NOT NULL COLLATE NOCASE,
  branding_text TEXT COLLATE NOCASE,
  tracking_code TEXT,
  pricing_model TEXT,
  cpc REAL,
  safety_rating TEXT CHECK (safety_rating IS NULL OR json_valid(safety_rating)),
  daily_cap REAL,
  daily_ad_delivery_model TEXT,
  spending_limit REAL,
  spending_limit_model TEXT,
  bid_strategy TEXT,
  marketing_objective TEXT,
  campaign_group_id TEXT,
  start_date TEXT,
  campaign_item_type TEXT,
  status TEXT,
  spent REAL,
  present INTEGER NOT NULL,
  extra TEXT CHECK (extra IS NULL OR json_valid(extra)),
  search TEXT NOT NULL,
  PRIMARY KEY (account_key, id_num, id)
) STRICT, WITHOUT ROWID;

-- One index per sortable field. status rides along in each so a status filter is answered from
-- the index alone (deep pages stay cheap); ties are broken by status, then the primary key.
CREATE INDEX campaigns_by_name ON campaigns(account_key, name, status);
CREATE INDEX campaigns_by_status ON campaigns(account_key, status);
CREATE INDEX campaigns_by_spent ON campaigns(account_key, spent, status);
CREATE INDEX campaigns_by_cpc ON campaigns(account_key, cpc, status);
CREATE INDEX campaigns_by_daily_cap ON campaigns(account_key, daily_cap, status);
CREATE INDEX campaigns_by_spending_limit ON campaigns(account_key, spending_limit, status);
CREATE INDEX campaigns_by_start_date ON campaigns(account_key, start_date, status);
CREATE INDEX campaigns_by_advertiser_id ON campaigns(account_key, advertiser_id, status);
CREATE INDEX campaigns_by_advertiser_name ON campaigns(account_key, advertiser_name, status);
CREATE INDEX campaigns_by_branding_text ON campaigns(account_key, branding_text, status);
CREATE INDEX campaigns_by_pricing_model ON campaigns(account_key, pricing_model, status);
CREATE INDEX campaigns_by_bid_strategy ON campaigns(account_key, bid_strategy, status);
CREATE INDEX campaigns_by_marketing_objective ON campaigns(account_key, marketing_objective, status);
CREATE INDEX campaigns_by_spending_limit_model ON campaigns(account_key, spending_limit_model, status);
CREATE INDEX campaigns_by_campaign_item_type ON campaigns(account_key, campaign_item_type, status);
CREATE INDEX campaigns_by_daily_ad_delivery_model ON campaigns(account_key, daily_ad_delivery_model, status);
-- The quick text filter scans this narrow index instead of the rows (search starts with the id,
-- so refreshes append to it rather than writing all over it).
CREATE INDEX campaigns_by_search ON campaigns(account_key, search);

CREATE TABLE apps (
  profile_id TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
  app_id TEXT NOT NULL,
  publisher TEXT NOT NULL,
  sw_path TEXT,
  sw_path_set_at INTEGER,
  refreshed_at INTEGER NOT NULL,
  PRIMARY KEY (profile_id, app_id)
) STRICT;

CREATE TABLE tasks (
  profile_id TEXT NOT NULL,
  app_id TEXT NOT NULL,
  task_id TEXT NOT NULL,
  task_type TEXT NOT NULL,
  task_status TEXT NOT NULL,
  task_update_time INTEGER,
  task_update_time_formatted TEXT,
  execution_time INTEGER,
  execution_time_formatted TEXT,
  method TEXT,
  video_id TEXT,
  forced_item_policy TEXT,
  user_time_zone INTEGER,
  title TEXT,
  url TEXT,
  thumbnail_url TEXT,
  icon_url TEXT,
  performer TEXT,
  raw TEXT NOT NULL CHECK (json_valid(raw)),
  refreshed_at INTEGER NOT NULL,
  PRIMARY KEY (profile_id, task_id),
  FOREIGN KEY (profile_id, app_id) REFERENCES apps(profile_id, app_id) ON DELETE CASCADE
) STRICT;
CREATE INDEX tasks_by_app ON tasks(profile_id, app_id, execution_time);

CREATE TABLE activity (
  id INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,
  profile_id TEXT REFERENCES profiles(id) ON DELETE CASCADE,
  account_id TEXT,
  kind TEXT NOT NULL,
  message TEXT NOT NULL,
  details TEXT CHECK (details IS NULL OR json_valid(details))
) STRICT;
CREATE INDEX activity_by_profile ON activity(profile_id, at);
CREATE INDEX activity_by_time ON activity(at);
`,
};
