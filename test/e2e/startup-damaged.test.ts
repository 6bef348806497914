// Restart with a damaged data file, in the browser: the page says what happened and what to do,
// "Start fresh" moves the file aside (its bytes kept beside it) and opens the app on an empty one.
// Screenshot: docs/startup-damaged.png.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseStartFresh, withDamagedData } from './flows/startup';
import { screenshotPath } from './support';

const damaged = withDamagedData('desk-e2e-damaged-');
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('restart with a damaged data file', () => {
  it('tells the person, and Start fresh keeps the file aside and opens the app', async () => {
    const { dataDir } = damaged;
    const page = await damaged.open({ width: 1000, height: 600 });
    const alert = page.getByRole('alert');
    expect(await alert.textContent()).toMatch(
      /^Campaign Desk's data file is damaged \(.+\): .*campaign-desk\.sqlite\. Choose "Start fresh" to move it aside/,
    );
    await page.screenshot({ path: screenshotPath('startup-damaged.png') });
    // Nothing has been moved until the person chooses.
    expect(readdirSync(dataDir).filter((f) => f.includes('.damaged-'))).toEqual([]);

    const kept = await chooseStartFresh(page, dataDir);
    expect(sha256(readFileSync(join(dataDir, kept)))).toBe(sha256(damaged.damagedBytes()));
  });
});
