// Public surface of the store for the sync engine, the IPC layer and the composition root.
export { openStore, type OpenStoreOptions, type Store } from './store';
export { StoreError, type StoreErrorCode } from './errors';
export { DataFileProblem, type DataFileProblemKind } from './data-file';
export { openStoreAtStart, type OpenedAtStart } from './open-at-start';
export type { Clock, AccountRef, StoredError } from './types';
export type { Profile, ProfileInput, ProfilePatch, SignInFlow } from './profiles-repo';
export type { Account, AccountType, OnlineState, AddAccountInput, AccountPatch } from './accounts-repo';
export type { CampaignRefresh, PageResult, RefreshSummary } from './campaigns-repo';
export { MAX_QUERY_LIMIT, type CampaignQuery, type CampaignPage } from './campaign-query';
export type { App } from './apps-repo';
export type { TaskInput } from './tasks-repo';
export type { Draft, DraftKind, DraftState, SaveDraftInput } from './drafts-repo';
export { OUTBOX_STATES, OUTBOX_TRANSITIONS, type OutboxItem, type OutboxLane, type OutboxState, type EnqueueInput } from './outbox-repo';
export { OUTBOX_KINDS, outboxPayloadSchemas, type OutboxKind, type OutboxPayload, type OutboxWork } from './outbox-payloads';
export type { ActivityEntry, LogInput } from './activity-repo';
export type { QuarantinedRow } from './quarantine-repo';
export { sendNoteSchema, type SendNote, type SendNotesRepo } from './send-notes-repo';
export type { SettingKey, SettingValue, SettingsRepo } from './settings-repo';
