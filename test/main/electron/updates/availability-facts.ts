// What detectAvailability is told about the running build: an installed Linux build without an
// AppImage or a feed, with `overrides` on top (the auto-update tests and the packaging test).
import type { AvailabilityFacts } from '../../../../src/main/electron/updates/availability';

export function facts(overrides: Partial<AvailabilityFacts>): AvailabilityFacts {
  return {
    isPackaged: true,
    platform: 'linux',
    resourcesPath: '/opt/Campaign Desk/resources',
    appImage: undefined,
    exists: () => false,
    readText: () => null,
    ...overrides,
  };
}
