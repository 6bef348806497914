// App settings: one JSON value per known key, validated on the way in and out. A value that no
// longer parses (written by a newer app, or damaged) reads as the default, never as an error: a
// setting must not keep the app from starting.
import { z } from 'zod';
import { windowViewSchema } from '../../shared/ipc/contract';
import { RETENTION_DEFAULTS, retentionSchema } from '../../shared/retention';
import { draftHistorySchema } from '../../shared/domain/draft-history';
import type { RepoContext } from './context';

const SETTINGS = {
  /** The built-in demo connection: removed by the person (stays removed), or some of its accounts. */
  demo: z.object({ dismissed: z.boolean(), removedAccounts: z.array(z.string()) }),
  /** The default performer of each connection (profile id -> performer), prefilled in new pushes. */
  pushPerformers: z.record(z.string(), z.string()),
  /** Pushes saved as templates; payloads are checked by the push handlers, kept here as JSON. */
  pushTemplates: z.array(z.object({ id: z.string(), name: z.string(), payload: z.record(z.string(), z.unknown()), createdAt: z.number() })),
  /** The window as the person left it: open account and tab, each account's campaigns view. */
  views: windowViewSchema,
  /** How many days sent changes and activity entries are kept (src/main/sync/retention.ts prunes). */
  retention: retentionSchema,
  /** Accounts whose access the service withdrew ("profileId/accountId" -> its words and when), until a call succeeds. */
  accountAccess: z.record(z.string(), z.object({ words: z.string(), at: z.number() })),
  /** Each account's drafts undo history ("profileId/accountId" -> stacks), the most recently changed last. */
  draftHistory: z.record(z.string(), draftHistorySchema),
} as const;

export type SettingKey = keyof typeof SETTINGS;
export type SettingValue<K extends SettingKey> = z.infer<(typeof SETTINGS)[K]>;

export const SETTING_DEFAULTS: { [K in SettingKey]: SettingValue<K> } = {
  demo: { dismissed: false, removedAccounts: [] },
  pushPerformers: {},
  pushTemplates: [],
  views: { accounts: {} },
  retention: RETENTION_DEFAULTS,
  accountAccess: {},
  draftHistory: {},
};

export interface SettingsRepo {
  get<K extends SettingKey>(key: K): SettingValue<K>;
  set<K extends SettingKey>(key: K, value: SettingValue<K>): void;
}

export function createSettingsRepo(ctx: RepoContext): SettingsRepo {
  const read = ctx.db.prepare('SELECT value FROM settings WHERE key = ?').pluck();
  const write = ctx.db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  return {
    get(key) {
      const text = read.get(key) as string | undefined;
      if (text === undefined) return SETTING_DEFAULTS[key];
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        return SETTING_DEFAULTS[key];
      }
      const parsed = SETTINGS[key].safeParse(json);
      return parsed.success ? (parsed.data as SettingValue<typeof key>) : SETTING_DEFAULTS[key];
    },
    set(key, value) {
      const parsed = SETTINGS[key].parse(value);
      ctx.tx(() => write.run(key, JSON.stringify(parsed)));
    },
  };
}
