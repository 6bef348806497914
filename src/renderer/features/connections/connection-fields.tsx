// A connection's fields, the same in the add and the edit dialog: name, the three addresses, the
// client id and secret, the sign-in flow and, for the browser flow, its registered redirect address.
import type { InputHTMLAttributes, ReactNode } from 'react';
import { FormField, fieldDescriptionIds } from '../../components/form-field';
import { FormFooter } from '../../components/form-footer';
import type { ProfileForm } from './profile-form';

interface ConnectionFieldsProps {
  form: ProfileForm;
  setForm: (f: ProfileForm) => void;
  problems: Partial<Record<string, string[]>>;
  /**
   * Ids of the inputs (`${idPrefix}-${field}`) and of the form's error (`${idPrefix}-error`): from
   * useId, so that two dialogs with these fields never share an id (each label names its own input).
   */
  idPrefix: string;
  /** Test ids (`${testPrefix}-${field}`; the flow select is `${testPrefix}-flow`). */
  testPrefix: string;
  secretHint: string;
  secretAutofocus: boolean;
  /** Example values for a new connection. */
  placeholders: boolean;
  /** The form's error is about the secret (the service refused it): the secret field names it. */
  secretRefused?: boolean;
}

/** The add and the edit dialog's whole form: the fields, then the last error and the two buttons. */
export function ConnectionForm({
  onSubmit,
  error,
  onCancel,
  submit,
  submitTestId,
  busy,
  ...fields
}: ConnectionFieldsProps & {
  onSubmit(): void;
  error: string | null;
  onCancel(): void;
  submit: ReactNode;
  submitTestId: string;
  busy: boolean;
}) {
  return (
    <form
      className="form"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
      noValidate
    >
      <ConnectionFields {...fields} />
      <FormFooter
        error={error}
        errorTestId={`${fields.testPrefix}-error`}
        errorId={`${fields.idPrefix}-error`}
        onCancel={onCancel}
        submit={submit}
        submitTestId={submitTestId}
        busy={busy}
      />
    </form>
  );
}

function ConnectionFields({
  form,
  setForm,
  problems,
  idPrefix,
  testPrefix,
  secretHint,
  secretAutofocus,
  placeholders,
  secretRefused = false,
}: ConnectionFieldsProps) {
  const idOf = (field: keyof ProfileForm) => `${idPrefix}-${field}`;
  const input = (field: keyof ProfileForm, props: InputHTMLAttributes<HTMLInputElement> & { 'data-autofocus'?: boolean } = {}) => {
    const d = fieldDescriptionIds(idOf(field));
    const bad = (problems[field]?.length ?? 0) > 0 || (field === 'clientSecret' && secretRefused);
    // What a screen reader says on focus: the field's problem (or the refusal) first, then its hint.
    const describedBy = [
      (problems[field]?.length ?? 0) > 0 ? d.problems : null,
      field === 'clientSecret' && secretRefused ? `${idPrefix}-error` : null,
      field === 'clientSecret' ? d.hint : null,
    ].filter((x) => x !== null);
    return (
      <input
        id={idOf(field)}
        value={form[field]}
        onChange={(e) => setForm({ ...form, [field]: e.target.value })}
        aria-invalid={bad ? true : undefined}
        aria-describedby={describedBy.length > 0 ? describedBy.join(' ') : undefined}
        data-testid={`${testPrefix}-${field}`}
        {...props}
      />
    );
  };
  const address = placeholders ? { type: 'url', placeholder: 'https://' } : { type: 'url' };
  return (
    <>
      <FormField label="Name" name="name" inputId={idOf('name')} problems={problems.name}>
        {input('name', placeholders ? { placeholder: 'e.g. Production' } : {})}
      </FormField>
      <FormField label="API address" name="baseUrl" inputId={idOf('baseUrl')} problems={problems.baseUrl}>
        {input('baseUrl', address)}
      </FormField>
      <FormField label="Sign-in address" name="authUrl" inputId={idOf('authUrl')} problems={problems.authUrl}>
        {input('authUrl', address)}
      </FormField>
      <FormField label="Push address" name="pushUrl" inputId={idOf('pushUrl')} problems={problems.pushUrl}>
        {input('pushUrl', address)}
      </FormField>
      <FormField label="Client id" name="clientId" inputId={idOf('clientId')} problems={problems.clientId}>
        {input('clientId', { autoComplete: 'off' })}
      </FormField>
      <FormField
        label="Client secret"
        name="clientSecret"
        inputId={idOf('clientSecret')}
        problems={problems.clientSecret}
        hint={secretHint}
      >
        {input('clientSecret', { type: 'password', autoComplete: 'new-password', ...(secretAutofocus ? { 'data-autofocus': true } : {}) })}
      </FormField>
      <FormField label="Sign-in flow" name="flow" inputId={`${idPrefix}-flow`}>
        <select
          id={`${idPrefix}-flow`}
          value={form.flow}
          onChange={(e) => setForm({ ...form, flow: e.target.value as ProfileForm['flow'] })}
          data-testid={`${testPrefix}-flow`}
        >
          <option value="client_credentials">Client credentials (no browser)</option>
          <option value="authorization_code">Authorization code (sign in in the browser)</option>
        </select>
      </FormField>
      {form.flow === 'authorization_code' ? (
        <FormField label="Redirect URI" name="redirectUri" inputId={idOf('redirectUri')} problems={problems.redirectUri}>
          {input('redirectUri', { type: 'url' })}
        </FormField>
      ) : null}
    </>
  );
}
