// What each account may use (DECISIONS client 13), as learned from the service or said by the
// person. The newest word wins, whoever said it: a person's statement replaces what was learned
// before it, and a refusal or success after it is newer news from the service.
import {
  CAPABILITIES,
  capabilityRecordSchema,
  type Capability,
  type CapabilityRecord,
  type CapabilityState,
} from '../../shared/domain/capabilities';
import type { AccountsRepo } from './accounts-repo';
import type { RepoContext } from './context';
import type { AccountRef } from './types';

export interface CapabilityInput {
  capability: Capability;
  state: CapabilityState;
  source: 'learned' | 'person';
  /** The service's words for a refusal. */
  message?: string | null;
}

export interface CapabilitiesRepo {
  /** The known capabilities of the account (unknown ones have no record), in CAPABILITIES order. */
  list(ref: AccountRef): CapabilityRecord[];
  /** Records (or, with state 'unknown', forgets) one capability; returns the account's list after it. */
  set(ref: AccountRef, input: CapabilityInput): CapabilityRecord[];
}

const order = (c: string) => (CAPABILITIES as readonly string[]).indexOf(c);

export function createCapabilitiesRepo(ctx: RepoContext, accounts: AccountsRepo): CapabilitiesRepo {
  const listStmt = ctx.db.prepare('SELECT capability, state, source, message, at FROM account_capabilities WHERE account_key = ?');
  const upsert = ctx.db.prepare(`INSERT INTO account_capabilities (account_key, capability, state, source, message, at)
    VALUES (@key, @capability, @state, @source, @message, @at)
    ON CONFLICT (account_key, capability) DO UPDATE SET state = excluded.state, source = excluded.source, message = excluded.message, at = excluded.at`);
  const del = ctx.db.prepare('DELETE FROM account_capabilities WHERE account_key = ? AND capability = ?');

  const list = (ref: AccountRef): CapabilityRecord[] => {
    const out: CapabilityRecord[] = [];
    for (const row of listStmt.all(accounts.keyOf(ref))) {
      // A capability this version does not know (written by a newer app) is left alone, not shown.
      const parsed = capabilityRecordSchema.safeParse(row);
      if (parsed.success) out.push(parsed.data);
    }
    return out.sort((a, b) => order(a.capability) - order(b.capability));
  };

  return {
    list,
    set(ref, input) {
      return ctx.tx(() => {
        const key = accounts.keyOf(ref);
        if (input.state === 'unknown') del.run(key, input.capability);
        else {
          const rec = capabilityRecordSchema.parse({
            capability: input.capability,
            state: input.state,
            source: input.source,
            message: input.state === 'refused' ? (input.message ?? null) : null,
            at: ctx.clock.now(),
          });
          upsert.run({ key, ...rec });
        }
        return list(ref);
      });
    },
  };
}
