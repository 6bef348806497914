// What every handler module gets from the composition root.
import type { RateLimitScheduler } from '../ratelimit/scheduler';
import type { Store } from '../store';
import type { Connections } from '../connections/connections';
import type { EventHub } from '../events/event-hub';
import type { OutboxDrainer } from '../sync/outbox-drain';
import type { Refresher } from '../sync/refresh';
import type { SendNotes } from '../sync/send-notes';
import type { SecretPort } from '../secrets/secret-port';

export type Level = 'info' | 'warning' | 'error';

export interface CoreContext {
  store: Store;
  secrets: SecretPort;
  hub: EventHub;
  connections: Connections;
  refresher: Refresher;
  drainer: OutboxDrainer;
  notes: SendNotes;
  scheduler: RateLimitScheduler;
  now(): number;
  info: { version: string; transport: 'electron' | 'browser' };
  /** The built-in sandbox this run serves the demo connection from; null when there is none. */
  demo: { url: string } | null;
  /** The activity log (never given a secret). */
  log(profileId: string | null, accountId: string | null, level: Level, kind: string, message: string): void;
}
