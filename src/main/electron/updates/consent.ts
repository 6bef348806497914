// The person's answer to "update automatically?", kept in a small JSON file in the data folder
// (like the window position). No file, or a damaged one, means no: Campaign Desk looks for updates
// on its own only after the person turned it on.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';

export const UPDATE_CONSENT_FILE = 'updates.json';

export const updateConsentSchema = z.object({
  automatic: z.boolean(),
  /** When the person last changed it (ms since the epoch), for support questions. */
  decidedAt: z.number().int().nonnegative(),
});
export type UpdateConsent = z.infer<typeof updateConsentSchema>;

export interface ConsentStore {
  read(): UpdateConsent | null;
  write(consent: UpdateConsent): void;
}

export function fileConsentStore(file: string): ConsentStore {
  return {
    read() {
      try {
        const parsed = updateConsentSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
        return parsed.success ? parsed.data : null;
      } catch {
        return null;
      }
    },
    write(consent) {
      const checked = updateConsentSchema.parse(consent);
      mkdirSync(dirname(file), { recursive: true });
      // Write then rename: a crash mid-write leaves the previous answer, not half a file.
      const tmp = `${file}.tmp`;
      writeFileSync(tmp, JSON.stringify(checked));
      renameSync(tmp, file);
    },
  };
}
