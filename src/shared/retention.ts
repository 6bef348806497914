// How long history is kept: sent changes (the Outbox's per-account history) and the activity log.
// One period for both, shown to the person where the history is shown, so nothing disappears
// without having said when it would.
export const HISTORY_RETENTION_DAYS = 30;
export const HISTORY_RETENTION_MS = HISTORY_RETENTION_DAYS * 86_400_000;
