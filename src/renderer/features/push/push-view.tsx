// The Push tab: the composer on the left, the live preview on the right, the target builder below,
// and the actions (Check, Save as draft, Queue) in a bar under them that never scrolls away.
// Every edit is kept as a draft (not posted) on its own; Save as draft saves at once and says so.
// A new push opens quiet: a field's problems are said, in the window's words, once it is left
// after editing (or picked, for choices), and all of them on Check or Queue, as in the campaign
// editor (lib/use-touched.ts). Queue checks it with the rules and hands it to the outbox.
import { useEffect } from 'react';
import { FormField } from '../../components/form-field';
import { shortcutLabel, useShortcuts } from '../../lib/shortcuts';
import { useTouched } from '../../lib/use-touched';
import { composerProblems, usePush } from '../../stores/push-store';
import { useServiceClock, useServiceNow } from '../../stores/service-clock-store';
import { problemsByField } from '../../forms/campaign-form';
import type { PushForm } from '../../forms/push-form';
import { scheduleZoneWarning } from '../../forms/schedule';
import { pushProblemInWords } from '../../forms/push-words';
import type { FieldProblem } from '../../../shared/domain/campaign';
import { TakenBackNote } from '../../components/taken-back-note';
import { BlockedPushes } from './blocked-pushes';
import { PushContentFields } from './content-fields';
import { PushPreview } from './push-preview';
import { ScheduleField } from './schedule-field';
import { TargetBuilder } from './target-builder';
import { TemplatesBar } from './templates-bar';
import { problemCount } from '../../forms/problem-words';

const KEYS = { save: 'Mod+S', queue: 'Mod+Enter', check: 'Alt+Enter' } as const;

// Quiet on purpose: edits are kept on their own, the state only reassures. "Unsaved" is shown as
// saving because the journal already holds the edit and the autosave is due in a moment.
const SAVE_TEXT = { saved: 'Saved', saving: 'Saving\u2026', unsaved: 'Saving\u2026', failed: 'Not saved' } as const;

export function PushView({ now }: { now: number }) {
  const s = usePush();
  useEffect(() => {
    void usePush.getState().loadApps();
  }, []);
  // The rules need the time to judge a scheduled push: the service's clock, as the service judges it.
  const serviceNow = useServiceNow(s.account?.profileId, Math.max(now, Date.now()));
  const problems = composerProblems(s, serviceNow);
  // Said beside Queue too: a subscriber's-time push that some zones have already passed is legal, but not what was meant.
  const zoneWarning = scheduleZoneWarning(s.form, serviceNow);
  useShortcuts([
    { keys: KEYS.save, run: () => void s.saveDraft() },
    { keys: KEYS.check, run: () => void s.check() },
    // With problems, Queue shows them all instead of queueing (the store's queue does).
    { keys: KEYS.queue, run: () => void s.queue() },
  ]);

  return (
    <div className="push-shell" data-testid="push-composer">
      {/* A new key for each push: what was touched in the last one is not carried over. */}
      <PushFields key={s.composerKey} problems={problems} serviceNow={serviceNow} />
      <div className="editor-actions push-actions" role="group" aria-label="Push actions">
        {s.notice ? (
          <span className={s.notice.bad ? 'form-problem' : 'notice-ok'} role="status" data-testid="push-notice">
            {s.notice.text}
          </span>
        ) : (
          <span className="muted" data-testid="push-problem-count">
            {problems.length > 0
              ? `${problemCount(problems.length)}${s.revealed ? '' : ' (Check shows them)'}`
              : zoneWarning
                ? 'Ready to queue, but some time zones will miss it (see When)'
                : 'Ready to queue'}
          </span>
        )}
        <button
          type="button"
          onClick={() => void s.check()}
          title={`Check with the rules (${shortcutLabel(KEYS.check)})`}
          data-testid="push-check"
        >
          Check <kbd>{shortcutLabel(KEYS.check)}</kbd>
        </button>
        <button
          type="button"
          onClick={() => void s.saveDraft()}
          disabled={s.busy}
          title={`Save as draft (${shortcutLabel(KEYS.save)})`}
          data-testid="push-save"
        >
          Save as draft <kbd>{shortcutLabel(KEYS.save)}</kbd>
        </button>
        <button
          type="button"
          className="primary"
          onClick={() => void s.queue()}
          disabled={s.busy || problems.length > 0}
          title={`Queue to send (${shortcutLabel(KEYS.queue)})`}
          data-testid="push-queue"
        >
          Queue <kbd>{shortcutLabel(KEYS.queue)}</kbd>
        </button>
      </div>
    </div>
  );
}

/** The composer's fields, with the problems of the fields touched since this push was opened. */
function PushFields({ problems, serviceNow }: { problems: FieldProblem[]; serviceNow: number }) {
  const s = usePush();
  const { touch, shown } = useTouched(s.revealed);
  const serviceOffset = useServiceClock((c) => (s.account ? c.offsets[s.account.profileId] : undefined));
  const by = problemsByField(shown(problems).map((p) => ({ field: p.field, message: pushProblemInWords(p) })));
  const f = s.form;
  const text = (field: keyof PushForm & string, props: React.InputHTMLAttributes<HTMLInputElement> = {}) => (
    <input
      id={`f-${field}`}
      value={String(f[field])}
      onChange={(e) => s.edit({ [field]: e.target.value })}
      onBlur={() => touch(field)}
      aria-invalid={by[field] ? true : undefined}
      data-testid={`push-${field}`}
      {...props}
    />
  );

  return (
    <div className="push">
      <div className="push-form">
        <BlockedPushes serviceNow={serviceNow} />
        <div className="editor-head">
          <h2 className="details-title">{s.draftId ? 'Push draft' : 'New push'}</h2>
          {s.draftId ? <span className="tag-local">not posted</span> : null}
          {s.draftId || s.saveState !== 'saved' ? (
            <span
              className={`muted save-state save-${s.saveState}`}
              data-testid="push-save-state"
              aria-live="polite"
              title={s.saveError ?? undefined}
            >
              {SAVE_TEXT[s.saveState]}
              {s.saveError ? `: ${s.saveError}` : ''}
            </span>
          ) : null}
          <button type="button" className="head-action" onClick={() => s.reset()} title="Start a new push">
            New
          </button>
        </div>
        {s.serviceWords ? <TakenBackNote taken={s.serviceWords} /> : null}
        <TemplatesBar />
        <div className="form">
          <PushContentFields
            value={f}
            onEdit={(patch) => s.edit(patch)}
            problems={by}
            onLeave={touch}
            prefix=""
            inputTestPrefix="push"
            placeholders
            urlRow={
              <FormField label="URL" name="url" problems={by.url}>
                {text('url', { type: 'url', placeholder: 'https://' })}
              </FormField>
            }
          />
          <FormField
            label="Performer"
            name="performer"
            problems={by.performer}
            hint={
              <span data-testid="performer-hint">
                Who sends it (recorded by the service).{' '}
                {s.defaultPerformer && f.performer === s.defaultPerformer ? (
                  <span>The default of this connection.</span>
                ) : f.performer.trim() !== '' ? (
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => void s.setDefaultPerformer(f.performer)}
                    data-testid="performer-make-default"
                  >
                    Use as default for this connection
                  </button>
                ) : null}
              </span>
            }
          >
            {text('performer')}
          </FormField>
          <ScheduleField
            value={f}
            onChange={(patch) => s.edit(patch)}
            onTouch={touch}
            serviceNow={serviceNow}
            serviceOffsetMs={serviceOffset}
            problems={[...(by.executionTime ?? []), ...(by.userTimeZone ?? [])]}
          />
        </div>
      </div>
      <PushPreview form={f} />
      <div className="push-target">
        {s.appsError ? <p className="form-problem">{s.appsError}</p> : null}
        <TargetBuilder form={f} apps={s.apps} appsLoading={s.appsLoading} by={by} onChange={(next) => s.replace(next)} onTouch={touch} />
      </div>
    </div>
  );
}
