// "Kept for 30 days, then removed" with a small Change… beside it: the person sets how long sent
// changes and the activity log are kept. A shorter period removes older history at once, so the
// dialog says how much before anything is saved.
import { useEffect, useState } from 'react';
import {
  daysLabel,
  RETENTION_MAX_DAYS,
  RETENTION_MIN_DAYS,
  retentionEffectText,
  retentionSchema,
  type Retention,
  type RetentionEffect,
} from '../../../shared/retention';
import { Dialog } from '../../components/dialog';
import { FormField } from '../../components/form-field';
import { FormFooter } from '../../components/form-footer';
import { call } from '../../lib/api';
import { useAction } from '../../lib/use-action';
import { useRetention } from '../../stores/retention-store';
import { useStatus } from '../../stores/status-store';

/** The form's text as days, or the rule's words for what is wrong with it. */
function readForm(sent: string, activity: string): { ok: true; value: Retention } | { ok: false; field: keyof Retention; message: string } {
  const r = retentionSchema.safeParse({
    sentDays: sent.trim() === '' ? Number.NaN : Number(sent),
    activityDays: activity.trim() === '' ? Number.NaN : Number(activity),
  });
  if (r.success) return { ok: true, value: r.data };
  const issue = r.error.issues[0];
  return {
    ok: false,
    field: issue?.path[0] === 'activityDays' ? 'activityDays' : 'sentDays',
    message: issue?.message ?? 'Write a whole number of days.',
  };
}

function RetentionDialog({ onClose }: { onClose(): void }) {
  const current = useRetention((s) => s.retention);
  const [sent, setSent] = useState(String(current.sentDays));
  const [activity, setActivity] = useState(String(current.activityDays));
  const [effect, setEffect] = useState<RetentionEffect | null>(null);
  const { busy, error, run } = useAction();
  const form = readForm(sent, activity);
  const value = form.ok ? form.value : null;

  // What the new periods would remove, asked as they are typed (nothing is changed by asking).
  useEffect(() => {
    if (!value) return setEffect(null);
    let live = true;
    call('retention.preview', value).then(
      (e) => live && setEffect(e),
      () => live && setEffect(null),
    );
    return () => {
      live = false;
    };
  }, [value?.sentDays, value?.activityDays]); // eslint-disable-line react-hooks/exhaustive-deps -- the days are the dependency, not the object made each render

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!value) return;
    await run(async () => {
      await useRetention.getState().set(value);
      await useStatus.getState().loadOutbox();
      onClose();
    });
  };

  const effectText = value && effect ? retentionEffectText(effect, value) : null;
  const field = (id: keyof Retention, label: string, text: string, onChange: (v: string) => void) => {
    const problem = !form.ok && form.field === id ? form.message : null;
    return (
      <FormField label={label} name={id} problems={problem ? [problem] : []}>
        <span className="retention-days">
          <input
            id={`f-${id}`}
            type="number"
            inputMode="numeric"
            min={RETENTION_MIN_DAYS}
            max={RETENTION_MAX_DAYS}
            step={1}
            value={text}
            onChange={(e) => onChange(e.target.value)}
            aria-invalid={problem ? true : undefined}
            data-testid={`retention-${id}`}
          />
          days
        </span>
      </FormField>
    );
  };

  return (
    <Dialog title="How long history is kept" onClose={onClose} testId="retention-dialog">
      <form className="form" onSubmit={(e) => void save(e)} noValidate>
        <p className="muted">
          Sent changes and activity entries older than this are removed from this computer ({RETENTION_MIN_DAYS} to {RETENTION_MAX_DAYS}{' '}
          days). Nothing that is not sent yet is ever removed.
        </p>
        {field('sentDays', 'Sent changes', sent, setSent)}
        {field('activityDays', 'Activity log', activity, setActivity)}
        {effectText ? (
          <p className="form-problem" data-testid="retention-effect">
            {effectText}
          </p>
        ) : null}
        <FormFooter
          error={error}
          errorTestId="retention-error"
          onCancel={onClose}
          submit="Save"
          submitTestId="retention-save"
          busy={busy || !value}
        />
      </form>
    </Dialog>
  );
}

/** "kept for N days, then removed": said in the Sent history's summary (plain text, so the summary holds no control). */
export function RetentionText() {
  const { retention, loaded, load } = useRetention();
  useEffect(() => {
    if (!loaded) void load();
  }, [loaded, load]);
  const same = retention.sentDays === retention.activityDays;
  return (
    <span className="muted" data-testid="retention-note">
      kept for {daysLabel(retention.sentDays)}, then removed; the activity log{' '}
      {same ? 'likewise' : `for ${daysLabel(retention.activityDays)}`}
    </span>
  );
}

/** Change… beside the Sent history's summary (outside it: a control inside a <summary> is nested interaction). */
export function RetentionChange() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="link-button outbox-retention-change"
        onClick={() => setOpen(true)}
        title="How long sent changes and the activity log are kept"
        data-testid="retention-change"
      >
        Change…
      </button>
      {open ? <RetentionDialog onClose={() => setOpen(false)} /> : null}
    </>
  );
}
