// Applications a profile may push to (auth-apps, spec 2.7) and the service-worker path last set
// for each (the service has no read for it, so the desk remembers what it set).
import { z } from 'zod';
import { authAppsSchema } from '../../shared/domain/push';
import type { RepoContext } from './context';
import { StoreError } from './errors';

export interface App {
  profileId: string;
  appId: string;
  publisher: string;
  swPath: string | null;
  swPathSetAt: number | null;
  refreshedAt: number;
}

const appRowSchema = z.object({
  profile_id: z.string(),
  app_id: z.string(),
  publisher: z.string(),
  sw_path: z.string().nullable(),
  sw_path_set_at: z.number().int().nullable(),
  refreshed_at: z.number().int(),
});

function fromRow(r: unknown): App {
  const row = appRowSchema.parse(r);
  return {
    profileId: row.profile_id,
    appId: row.app_id,
    publisher: row.publisher,
    swPath: row.sw_path,
    swPathSetAt: row.sw_path_set_at,
    refreshedAt: row.refreshed_at,
  };
}

export interface AppsRepo {
  /** Replaces the profile's apps with the auth-apps map in one transaction (their tasks go too). */
  replaceAll(profileId: string, apps: Record<string, string>): { added: number; removed: number; updated: number };
  list(profileId: string): App[];
  get(profileId: string, appId: string): App | undefined;
  setSwPath(profileId: string, appId: string, swPath: string): void;
}

export function createAppsRepo(ctx: RepoContext): AppsRepo {
  const { db } = ctx;
  const listStmt = db.prepare('SELECT * FROM apps WHERE profile_id = ? ORDER BY publisher COLLATE NOCASE, app_id');
  const getStmt = db.prepare('SELECT * FROM apps WHERE profile_id = ? AND app_id = ?');
  const upsert = db.prepare(`INSERT INTO apps (profile_id, app_id, publisher, refreshed_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (profile_id, app_id) DO UPDATE SET publisher = excluded.publisher, refreshed_at = excluded.refreshed_at`);
  const del = db.prepare('DELETE FROM apps WHERE profile_id = ? AND app_id = ?');
  const setSw = db.prepare('UPDATE apps SET sw_path = ?, sw_path_set_at = ? WHERE profile_id = ? AND app_id = ?');

  return {
    replaceAll(profileId, input) {
      const apps = authAppsSchema.parse(input);
      return ctx.tx(() => {
        const before = new Map(
          listStmt
            .all(profileId)
            .map((r) => fromRow(r))
            .map((a) => [a.appId, a]),
        );
        const now = ctx.clock.now();
        let added = 0;
        let updated = 0;
        for (const [appId, publisher] of Object.entries(apps)) {
          const old = before.get(appId);
          if (!old) added++;
          else if (old.publisher !== publisher) updated++;
          upsert.run(profileId, appId, publisher, now);
          before.delete(appId);
        }
        for (const appId of before.keys()) del.run(profileId, appId);
        return { added, removed: before.size, updated };
      });
    },
    list(profileId) {
      return listStmt.all(profileId).map(fromRow);
    },
    get(profileId, appId) {
      const r = getStmt.get(profileId, appId);
      return r === undefined ? undefined : fromRow(r);
    },
    setSwPath(profileId, appId, swPath) {
      if (setSw.run(swPath, ctx.clock.now(), profileId, appId).changes === 0) {
        throw new StoreError('NOT_FOUND', `No application ${appId} in this profile`);
      }
    },
  };
}
