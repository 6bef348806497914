// "Kept for 30 days, then removed" with a small Change… beside it: the person sets how long sent
// changes and the activity log are kept. A shorter period removes older history at once, so the
// dialog says how much before anything is saved.
import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { daysLabel, RETENTION_MAX_DAYS, RETENTION_MIN_DAYS, retentionEffectText, retentionSchema, type Retention, type RetentionEffect } from '../../../shared/retention';
import { Dialog } from '../../components/dialog';
import { FormField } from '../../components/form-field';
import { FormFooter } from '../../components/form-footer';
import { call, messageOf } from '../../lib/api';
import { useRetention } from '../../stores/retention-store';
import { useStatus } from '../../stores/status-store';

/** The form's text as days, or the rule's words for what is wrong with it. */
function readForm(sent: string, activity: string): { ok: true; value: Retention } | { ok: false; field: keyof Retention; message: string } {
  const r = retentionSchema.safeParse({ sentDays: sent.trim() === '' ? Number.NaN : Number(sent), activityDays: activity.trim() === '' ? Number.NaN : Number(activity) });
  if (r.success) return { ok: true, value: r.data };
  const issue = r.error.issues[0];
  return { ok: false, field: issue?.path[0] === 'activityDays' ? 'activityDays' : 'sentDays', message: issue?.message ?? 'Write a whole number of days.' };
}

function RetentionDialog({ onClose }: { onClose(): void }) {
  const current = useRetention((s) => s.retention);
  const [sent, setSent] = useState(String(current.sentDays));
  const [activity, setActivity] = useState(String(current.activityDays));
  const [effect, setEffect] = useState<RetentionEffect | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
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
    setBusy(true);
    setError(null);
    try {
      await useRetention.getState().set(value);
      await useStatus.getState().loadOutbox();
      onClose();
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
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
          Sent changes and activity entries older than this are removed from this computer ({RETENTION_MIN_DAYS} to {RETENTION_MAX_DAYS} days). Nothing that is not sent yet
          is ever removed.
        </p>
        {field('sentDays', 'Sent changes', sent, setSent)}
        {field('activityDays', 'Activity log', activity, setActivity)}
        {effectText ? (
          <p className="form-problem" data-testid="retention-effect">
            {effectText}
          </p>
        ) : null}
        <FormFooter error={error} errorTestId="retention-error" onCancel={onClose} submit="Save" submitTestId="retention-save" busy={busy || !value} />
      </form>
    </Dialog>
  );
}

/** The Sent history's "kept for N days" with its Change…; the dialog opens outside the <summary> so clicks in it do not fold the history. */
export function RetentionNote() {
  const { retention, loaded, load } = useRetention();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (!loaded) void load();
  }, [loaded, load]);
  const same = retention.sentDays === retention.activityDays;
  return (
    <>
      <span className="muted" data-testid="retention-note">
        kept for {daysLabel(retention.sentDays)}, then removed; the activity log {same ? 'likewise' : `for ${daysLabel(retention.activityDays)}`}
      </span>{' '}
      <button
        type="button"
        className="link-button"
        onClick={(e) => {
          // Inside <summary>: without this the click would also fold or unfold the history.
          e.preventDefault();
          setOpen(true);
        }}
        data-testid="retention-change"
      >
        Change…
      </button>
      {open ? createPortal(<RetentionDialog onClose={() => setOpen(false)} />, document.body) : null}
    </>
  );
}
