// The campaign draft editor: every create field of spec 4.1, the shared rules' problems next to
// their fields in the window's words once a field is touched (all of them on Check), autosave
// state, and Check / Queue to post. Each enum field
// offers the spec's values and the ones the account's campaigns show the service uses. What the
// account is known to refuse (learned or said, DECISIONS client 13) is shown on the choices and as
// a warning before queueing; it never blocks.
import { useState } from 'react';
import { capabilityStatus, capabilityWarnings, type Capability } from '../../../shared/domain/capabilities';
import { KNOWN_SPENDING_LIMIT_MODELS } from '../../../shared/domain/campaign';
import { AccountCapabilitiesDialog } from '../accounts/account-capabilities-dialog';
import { useAccountCapabilities } from '../accounts/use-account-capabilities';
import { enumLabel } from '../../lib/enum-labels';
import { FormField } from '../../components/form-field';
import { shortcutLabel } from '../../lib/shortcuts';
import { useDrafts } from '../../stores/drafts-store';
import { useTouched } from '../../lib/use-touched';
import {
  campaignFormProblems,
  cpcShown,
  fieldChoices,
  formToPayload,
  GROUP_BUDGET,
  problemsByField,
  spendingLimitShown,
  type CampaignForm,
  type SeenValues,
} from '../../forms/campaign-form';
import { unknownValues } from '../../forms/unknown-values';
import { problemInWords, unknownValueInWords } from './draft-fields';
import { problemCount } from '../../forms/problem-words';

const BUDGET_LABELS: Readonly<Record<string, string>> = { MONTHLY: 'Monthly spending limit', NONE: 'No limit (daily cap)' };
/** The budget choice that sends neither a limit nor a model: the interface's display example (spec 4.1 rule 6). */
const NOT_SENT_LABEL = 'Not sent (as in display campaigns)';

/** An amount of money: cents, never negative, the decimal keypad on touch screens. */
const AMOUNT: React.InputHTMLAttributes<HTMLInputElement> = { type: 'number', step: '0.01', min: '0', inputMode: 'decimal' };

/** The hint of a field the chosen strategy or model may not need: the service decides, not the desk. */
const optionalFor = (need: 'required' | 'optional' | 'hidden', choice: string) =>
  need === 'optional' ? `Optional: what ${enumLabel(choice)} needs is the service's to say` : undefined;

/** The capability a choice of a field needs, for showing what is known next to it. */
const CAPABILITY_OF: Readonly<Record<string, Capability>> = {
  HAS_NO_ITEMS_DISPLAY: 'display',
  HAS_NO_ITEMS_PERFORMANCE_DISPLAY_VIDEO: 'performance_video',
  NONE: 'no_spending_limit',
};

const SAVE_TEXT = { saved: 'All changes saved', saving: 'Saving...', unsaved: 'Unsaved changes...', failed: 'Not saved' } as const;

export const DRAFT_KEYS = { queue: 'Mod+Enter', check: 'Alt+Enter', save: 'Mod+S', create: 'Alt+N' } as const;

export function CampaignEditor({
  form,
  accountType,
  seen = {},
}: {
  form: CampaignForm;
  accountType?: 'ADVERTISER' | 'NETWORK';
  seen?: SeenValues;
}) {
  const { edit, saveState, saveError, check, submit, revealed, account } = useDrafts();
  const problems = campaignFormProblems(form, accountType);
  const known = useAccountCapabilities(account);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const now = Date.now();
  const warnings = known ? capabilityWarnings(formToPayload(form), known.capabilities, known.accountName, now) : [];
  const unknown = unknownValues(formToPayload(form), seen);
  /** " (refused on Nov 23)" after a choice the account is known about; nothing when unknown. */
  const knownNote = (value: string): string => {
    const c = CAPABILITY_OF[value];
    const rec = c ? known?.capabilities.find((r) => r.capability === c) : undefined;
    return rec ? ` (${capabilityStatus(rec, now).charAt(0).toLowerCase()}${capabilityStatus(rec, now).slice(1)})` : '';
  };
  // A field's problems show once it was touched (typed in or left), all of them after Check or
  // Queue: a blank new draft is not a page of errors.
  // The account's problem is no field's: it is always said.
  const { touch, shown: shownOf } = useTouched(revealed);
  const shown = shownOf(problems, (p) => p.field === 'account');
  const by = problemsByField(shown.map((p) => ({ field: p.field, message: problemInWords(p) })));
  const cpc = cpcShown(form.bid_strategy);
  const limit = spendingLimitShown(form.budget);
  // Models the service uses besides the spec's, each under its own name.
  const otherModels = fieldChoices('spending_limit_model', seen).filter(
    (m) => !(KNOWN_SPENDING_LIMIT_MODELS as readonly string[]).includes(m),
  );
  const text = (field: keyof CampaignForm, props: React.InputHTMLAttributes<HTMLInputElement> = {}) => (
    <input
      id={`f-${field}`}
      value={form[field]}
      onChange={(e) => {
        touch(field);
        edit({ [field]: e.target.value });
      }}
      onBlur={() => touch(field)}
      aria-invalid={by[field] ? true : undefined}
      data-testid={`input-${field}`}
      {...props}
    />
  );
  const select = (field: keyof CampaignForm, options: readonly string[], extra: [string, string][] = []) => (
    <select
      id={`f-${field}`}
      value={form[field]}
      onChange={(e) => {
        touch(field);
        edit({ [field]: e.target.value });
      }}
      data-testid={`input-${field}`}
    >
      {!options.includes(form[field]) && !extra.some(([v]) => v === form[field]) ? (
        <option value={form[field]}>{form[field] || '(choose)'}</option>
      ) : null}
      {options.map((o) => (
        <option key={o} value={o} title={o}>
          {enumLabel(o)}
          {knownNote(o)}
        </option>
      ))}
      {extra.map(([v, label]) => (
        <option key={v} value={v}>
          {label}
        </option>
      ))}
    </select>
  );

  return (
    <section className="editor" aria-label="Campaign draft" data-testid="campaign-editor">
      <div className="editor-head">
        <h2 className="details-title">Campaign draft</h2>
        <span className="tag-local">not posted</span>
        <span className={`muted save-state save-${saveState}`} data-testid="save-state" aria-live="polite" title={saveError ?? undefined}>
          {SAVE_TEXT[saveState]}
          {saveError ? `: ${saveError}` : ''}
        </span>
      </div>
      {by.account ? <p className="form-problem">{by.account.join(' ')}</p> : null}
      <div className="form">
        <FormField label="Name" name="name" problems={by.name}>
          {text('name', { autoFocus: true, maxLength: 300 })}
        </FormField>
        <FormField label="Creative surface" name="campaign_item_type" problems={by.campaign_item_type}>
          {select('campaign_item_type', fieldChoices('campaign_item_type', seen))}
        </FormField>
        <FormField label="Branding text" name="branding_text" problems={by.branding_text} hint="Needed for native campaigns">
          {text('branding_text')}
        </FormField>
        <FormField label="Objective" name="marketing_objective" problems={by.marketing_objective}>
          {select('marketing_objective', fieldChoices('marketing_objective', seen))}
        </FormField>
        <FormField label="Bidding" name="bid_strategy" problems={by.bid_strategy}>
          {select('bid_strategy', fieldChoices('bid_strategy', seen))}
        </FormField>
        {cpc !== 'hidden' ? (
          <FormField label="CPC" name="cpc" problems={by.cpc} hint={optionalFor(cpc, form.bid_strategy)}>
            {text('cpc', AMOUNT)}
          </FormField>
        ) : null}
        <FormField
          label="Budget"
          name="budget"
          problems={by.budget}
          hint={form.budget === '' ? 'No spending limit or model is sent, as in the display example of the interface' : undefined}
        >
          <select id="f-budget" value={form.budget} onChange={(e) => edit({ budget: e.target.value })} data-testid="input-budget">
            {[...KNOWN_SPENDING_LIMIT_MODELS, ...otherModels].map((m) => (
              <option key={m} value={m}>
                {BUDGET_LABELS[m] ?? `${m} (a model this service uses)`}
                {knownNote(m)}
              </option>
            ))}
            {form.budget !== '' &&
            form.budget !== GROUP_BUDGET &&
            !(KNOWN_SPENDING_LIMIT_MODELS as readonly string[]).includes(form.budget) &&
            !otherModels.includes(form.budget) ? (
              <option value={form.budget}>{form.budget}</option>
            ) : null}
            <option value={GROUP_BUDGET}>Shared campaign group budget</option>
            <option value="">{NOT_SENT_LABEL}</option>
          </select>
        </FormField>
        {limit !== 'hidden' ? (
          <FormField label="Spending limit" name="spending_limit" problems={by.spending_limit} hint={optionalFor(limit, form.budget)}>
            {text('spending_limit', AMOUNT)}
          </FormField>
        ) : null}
        <FormField label="Daily cap" name="daily_cap" problems={by.daily_cap} hint={form.budget === 'NONE' ? undefined : 'Optional'}>
          {text('daily_cap', AMOUNT)}
        </FormField>
        <FormField
          label="Campaign group"
          name="campaign_group_id"
          problems={by.campaign_group_id}
          hint={form.budget === GROUP_BUDGET ? 'The group whose budget this campaign shares' : 'Optional'}
        >
          {text('campaign_group_id')}
        </FormField>
        <FormField label="Start" name="start_date" problems={by.start_date} hint="Your local time; optional">
          {text('start_date', { type: 'datetime-local' })}
        </FormField>
      </div>
      {warnings.length > 0 ? (
        <div className="capability-warnings" role="status" data-testid="capability-warning">
          <p className="warning-head">Before you queue</p>
          {warnings.map((w) => (
            <p key={w.capability}>{w.message}</p>
          ))}
          <p>
            <button type="button" className="link-button" onClick={() => setSettingsOpen(true)} data-testid="open-account-capabilities">
              What {known?.accountName} may use...
            </button>
          </p>
        </div>
      ) : null}
      {unknown.length > 0 ? (
        <div className="capability-warnings" role="status" data-testid="unknown-values">
          <p className="warning-head">Before you queue</p>
          {unknown.map((u) => (
            <p key={u.field}>
              {unknownValueInWords(u)}{' '}
              <button
                type="button"
                className="link-button"
                onClick={() => edit({ [u.field === 'spending_limit_model' ? 'budget' : u.field]: u.nearest })}
                data-testid="use-nearest"
              >
                Use {enumLabel(u.nearest)}
              </button>
            </p>
          ))}
        </div>
      ) : null}
      <div className="editor-actions">
        <span className="muted" data-testid="problem-count">
          {problems.length === 0
            ? `Ready to queue${warnings.length + unknown.length > 0 ? ` (${warnings.length + unknown.length} warning${warnings.length + unknown.length === 1 ? '' : 's'})` : ''}`
            : `${problemCount(problems.length)}${revealed ? '' : ' (Check shows them)'}`}
        </span>
        <button
          type="button"
          onClick={() => void check()}
          title={`Check with the rules (${shortcutLabel(DRAFT_KEYS.check)})`}
          data-testid="draft-check"
        >
          Check <kbd>{shortcutLabel(DRAFT_KEYS.check)}</kbd>
        </button>
        <button
          type="button"
          className="primary"
          onClick={() => void submit()}
          disabled={problems.length > 0}
          title={`Queue to post (${shortcutLabel(DRAFT_KEYS.queue)})`}
          data-testid="draft-queue"
        >
          Queue to post <kbd>{shortcutLabel(DRAFT_KEYS.queue)}</kbd>
        </button>
      </div>
      {settingsOpen && account ? (
        <AccountCapabilitiesDialog
          account={{ ...account, name: known?.accountName ?? account.accountId }}
          onClose={() => setSettingsOpen(false)}
        />
      ) : null}
    </section>
  );
}
