// The sign-in flow of a connection and, for the browser flow, its registered redirect address:
// the same two fields in the add and the edit dialog.
import type { ReactNode } from 'react';
import { FormField } from '../../components/form-field';
import type { ProfileForm } from './profile-form';

export function SignInFields({
  form,
  setForm,
  problems,
  redirectInput,
  idPrefix,
  testId,
}: {
  form: ProfileForm;
  setForm: (f: ProfileForm) => void;
  problems: string[] | undefined;
  /** The dialog's own input for redirectUri (it owns the form's inputs). */
  redirectInput: ReactNode;
  idPrefix: string;
  testId: string;
}) {
  return (
    <>
      <FormField label="Sign-in flow" name="flow">
        <select id={`${idPrefix}-flow`} value={form.flow} onChange={(e) => setForm({ ...form, flow: e.target.value as ProfileForm['flow'] })} data-testid={testId}>
          <option value="client_credentials">Client credentials (no browser)</option>
          <option value="authorization_code">Authorization code (sign in in the browser)</option>
        </select>
      </FormField>
      {form.flow === 'authorization_code' ? (
        <FormField label="Redirect URI" name="redirectUri" problems={problems}>
          {redirectInput}
        </FormField>
      ) : null}
    </>
  );
}
