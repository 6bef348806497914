// The update decisions, apart from Electron: when Campaign Desk looks for a new version, when it
// downloads one, and when it restarts into it.
// - Off by default: until the person turns on "Update Automatically", nothing is checked or
//   downloaded on its own. "Check for Updates…" is a one-off yes for one look; a version it finds is
//   downloaded only after the person says so.
// - With the person's consent, it looks shortly after start and every few hours, and downloads a
//   new version in the background.
// - A downloaded version is never forced on anyone: the person is offered "Restart to Update" (a
//   dialog once, and the menu item until they do); otherwise it is installed when they next quit.
// - Before the restart the core is closed, so the database and the outbox are left consistent.
import type { Clock, TimerHandle } from '../../clock/clock';
import type { UpdateAvailability } from './availability';
import type { ConsentStore } from './consent';
import type { UpdaterPort } from './updater-port';

/** After start-up, so the first look does not compete with the first cache refresh. */
export const FIRST_CHECK_DELAY_MS = 60_000;
export const CHECK_INTERVAL_MS = 6 * 60 * 60_000;

export type UpdateState =
  | { kind: 'unavailable'; reason: string }
  | { kind: 'idle'; checkedAt: number | null }
  | { kind: 'checking' }
  /** Found by a check the person made; waiting for their yes to download. */
  | { kind: 'available'; version: string }
  | { kind: 'downloading'; version: string; percent: number }
  /** Downloaded: "Restart to Update". */
  | { kind: 'ready'; version: string }
  | { kind: 'failed'; message: string };

export interface UpdateSnapshot {
  state: UpdateState;
  /** The person agreed to automatic checks and downloads. */
  automatic: boolean;
}

/** The questions put to the person (native dialogs in the app). */
export interface UpdatePrompts {
  /** A check the person asked for found `version`: may it be downloaded now? */
  offerDownload(version: string): Promise<boolean>;
  /** `version` is downloaded: restart into it now? No means later (the menu keeps offering it). */
  offerRestart(version: string): Promise<boolean>;
  /** The answer to a check the person asked for, when there is nothing to decide. */
  inform(message: string): void;
}

export interface UpdateControllerOptions {
  availability: UpdateAvailability;
  currentVersion: string;
  /** Loaded on first use only: a build that never looks for updates never loads the updater. */
  loadUpdater(): Promise<UpdaterPort>;
  consent: ConsentStore;
  clock: Clock;
  prompts: UpdatePrompts;
  /** Closes the core (database, outbox, demo sandbox) before the app quits into the installer. */
  beforeRestart(): Promise<void>;
  onChange?(snapshot: UpdateSnapshot): void;
  log?(message: string): void;
}

export interface UpdateController {
  snapshot(): UpdateSnapshot;
  /** Schedules the first automatic check when the person has agreed to them. */
  start(): void;
  /** The person's answer to "Update Automatically"; remembered across restarts. */
  setAutomatic(on: boolean): void;
  /** "Check for Updates…": one look, now. */
  checkNow(): Promise<void>;
  /** "Download Update…": the person's yes to a version a check found. */
  download(): Promise<void>;
  /** "Restart to Update": closes the core, then quits into the installer. */
  restartToUpdate(): Promise<void>;
  stop(): void;
}

const CHECK_FAILED = 'Campaign Desk could not reach its releases feed. It will try again later; your work is not affected.';
const DOWNLOAD_FAILED = 'The update could not be downloaded. Campaign Desk will try again later; your work is not affected.';

export function createUpdateController(opts: UpdateControllerOptions): UpdateController {
  const log = opts.log ?? (() => undefined);
  let automatic = opts.availability.available && opts.consent.read()?.automatic === true;
  let state: UpdateState = opts.availability.available
    ? { kind: 'idle', checkedAt: null }
    : { kind: 'unavailable', reason: opts.availability.reason };
  let updater: Promise<UpdaterPort> | null = null;
  let timer: TimerHandle | null = null;
  let busy: Promise<void> | null = null;
  let stopped = false;

  const snapshot = (): UpdateSnapshot => ({ state, automatic });
  const set = (next: UpdateState) => {
    state = next;
    opts.onChange?.(snapshot());
  };
  const getUpdater = () => (updater ??= opts.loadUpdater());
  const available = () => opts.availability.available && !stopped;

  function schedule(delayMs: number): void {
    timer?.cancel();
    timer = null;
    if (!automatic || !available() || state.kind === 'ready') return;
    timer = opts.clock.setTimer(() => {
      timer = null;
      void run(() => look('automatic')).finally(() => schedule(CHECK_INTERVAL_MS));
    }, delayMs);
  }

  /** One thing at a time: a second request while a check or download runs joins it. */
  function run(task: () => Promise<void>): Promise<void> {
    if (busy) return busy;
    busy = task().finally(() => {
      busy = null;
    });
    return busy;
  }

  async function look(origin: 'automatic' | 'manual'): Promise<void> {
    if (state.kind === 'ready') {
      // Already downloaded: a look the person asked for offers the restart again.
      if (origin === 'manual') await offerRestart(state.version);
      return;
    }
    set({ kind: 'checking' });
    let found: { version: string } | null;
    try {
      found = await (await getUpdater()).check();
    } catch (e) {
      log(`[desk] updates: the check failed (${describe(e)})`);
      set({ kind: 'failed', message: CHECK_FAILED });
      if (origin === 'manual') opts.prompts.inform(CHECK_FAILED);
      return;
    }
    if (!found) {
      set({ kind: 'idle', checkedAt: opts.clock.now() });
      if (origin === 'manual') opts.prompts.inform(`Campaign Desk ${opts.currentVersion} is the newest version.`);
      return;
    }
    if (origin === 'automatic') return fetchUpdate(found.version);
    set({ kind: 'available', version: found.version });
    if (await opts.prompts.offerDownload(found.version)) await fetchUpdate(found.version);
  }

  async function fetchUpdate(version: string): Promise<void> {
    set({ kind: 'downloading', version, percent: 0 });
    try {
      const port = await getUpdater();
      await port.download((percent) => {
        const whole = Math.max(0, Math.min(100, Math.floor(percent)));
        // The menu shows the percentage: rebuild it only when the number changes.
        if (state.kind === 'downloading' && whole !== state.percent) set({ kind: 'downloading', version, percent: whole });
      });
      port.setInstallOnQuit(true);
    } catch (e) {
      log(`[desk] updates: the download failed (${describe(e)})`);
      set({ kind: 'failed', message: DOWNLOAD_FAILED });
      return;
    }
    timer?.cancel();
    timer = null;
    set({ kind: 'ready', version });
    // Offered once now; afterwards the menu keeps offering it, and no more looks are scheduled.
    await offerRestart(version);
  }

  async function offerRestart(version: string): Promise<void> {
    if (await opts.prompts.offerRestart(version)) await restartToUpdate();
  }

  async function restartToUpdate(): Promise<void> {
    if (state.kind !== 'ready' || stopped) return;
    const port = await getUpdater();
    try {
      await opts.beforeRestart();
    } catch (e) {
      // The installer must not be held back: SQLite's log keeps the database whole even so.
      log(`[desk] updates: the core did not close cleanly before the restart (${describe(e)})`);
    }
    stopped = true;
    timer?.cancel();
    port.quitAndInstall();
  }

  return {
    snapshot,
    start() {
      if (automatic) schedule(FIRST_CHECK_DELAY_MS);
    },
    setAutomatic(on) {
      if (!opts.availability.available) return;
      opts.consent.write({ automatic: on, decidedAt: opts.clock.now() });
      automatic = on;
      opts.onChange?.(snapshot());
      if (on) {
        // Agreeing is also the go for a first look now (or for the version already found), not in six hours.
        const current = state;
        if (current.kind === 'available') void run(() => fetchUpdate(current.version));
        else void run(() => look('automatic')).finally(() => schedule(CHECK_INTERVAL_MS));
      } else {
        timer?.cancel();
        timer = null;
      }
    },
    checkNow() {
      if (!available()) {
        if (state.kind === 'unavailable') opts.prompts.inform(`Campaign Desk cannot update itself here: ${state.reason}.`);
        return Promise.resolve();
      }
      return run(() => look('manual'));
    },
    download() {
      if (!available() || state.kind !== 'available') return Promise.resolve();
      const { version } = state;
      return run(() => fetchUpdate(version));
    },
    restartToUpdate,
    stop() {
      stopped = true;
      timer?.cancel();
      timer = null;
    },
  };
}

/** A short description for the log: the error's class and first line, never a whole response. */
function describe(e: unknown): string {
  if (!(e instanceof Error)) return 'unknown error';
  const firstLine = e.message.split('\n', 1)[0].slice(0, 200);
  return `${e.name}: ${firstLine}`;
}
