// Why a draft was taken back to be fixed, above its editor: the service refused its last version,
// or the app blocked it (its time passed). Shown by the Drafts list and the push composer alike,
// so it lives below both.
import type { TakenBack } from '../forms/taken-back';

/**
 * Words under a lead-in, unless they already open with what the lead-in says ("The service
 * refused to create ...", "Not sent: ..."): the lead-in is then left out, so nothing is said twice.
 */
export function saidOnce(lead: string, words: string, opens: RegExp): string {
  return opens.test(words.trim()) ? words : `${lead}${words}`;
}
/** Words that already say the service is speaking. */
export const SERVICE_SAYS = /^the service\b/i;
const NOT_SENT = /^not sent\b/i;

/** A draft taken back after the service refused it, or after the app blocked it: why, above its editor (Drafts and Push). */
export function TakenBackNote({ taken }: { taken: TakenBack }) {
  return (
    <div className="change-state" data-testid="change-state" data-status="draft">
      <p className="form-problem" data-testid="service-words">
        {taken.blocked
          ? saidOnce('The last version was not sent: ', taken.words, NOT_SENT)
          : saidOnce('The service refused the last version: ', taken.words, SERVICE_SAYS)}
      </p>
      <p className="muted">Fix it here and queue it again; it replaces the {taken.blocked ? 'blocked' : 'refused'} one.</p>
    </div>
  );
}
