// The Campaigns tab's status filter offers what the account's campaigns hold, as the service wrote it.
import { expect, it } from 'vitest';
import { statusChoices } from '../../../../src/renderer/features/campaigns/status-choices';

it('offers the interface statuses, then every other status seen, each once and in the service spelling', () => {
  expect(statusChoices([])).toEqual(['APPROVED', 'PENDING_APPROVAL', 'PAUSED', 'REJECTED', 'TERMINATED']);
  expect(statusChoices(['approved', 'ARCHIVED_BY_POLICY', 'paused', 'ARCHIVED_BY_POLICY', 'DRAFT', ''])).toEqual([
    'approved',
    'PENDING_APPROVAL',
    'paused',
    'REJECTED',
    'TERMINATED',
    'ARCHIVED_BY_POLICY',
    'DRAFT',
  ]);
});
