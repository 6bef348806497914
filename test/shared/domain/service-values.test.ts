// A filter over a service's enumeration offers what the service writes, each value once.
import { expect, it } from 'vitest';
import { KNOWN_CAMPAIGN_STATUSES } from '../../../src/shared/domain/campaign';
import { KNOWN_TASK_STATUSES } from '../../../src/shared/domain/push';
import { valueChoices } from '../../../src/shared/domain/service-values';

it('offers the statuses the interface shows, then every other status seen, each once and as the service spells it', () => {
  expect(valueChoices(KNOWN_CAMPAIGN_STATUSES, [])).toEqual([...KNOWN_CAMPAIGN_STATUSES]);
  expect(valueChoices(KNOWN_CAMPAIGN_STATUSES, ['approved', 'ARCHIVED_BY_POLICY', 'paused', 'ARCHIVED_BY_POLICY', 'DRAFT', ''])).toEqual([
    'approved',
    'PENDING_APPROVAL',
    'paused',
    'REJECTED',
    'TERMINATED',
    'ARCHIVED_BY_POLICY',
    'DRAFT',
  ]);
  // A task list in capitals, "canceled" for cancelled, and a state the interface does not name.
  const tasks = valueChoices(KNOWN_TASK_STATUSES, ['COMPLETED', 'PENDING', 'CANCELED', 'PROCESSING']);
  expect(tasks).toHaveLength(KNOWN_TASK_STATUSES.length + 1);
  expect(tasks).toEqual(expect.arrayContaining(['COMPLETED', 'PENDING', 'CANCELED', 'PROCESSING']));
  expect(tasks).not.toContain('cancelled');
});
