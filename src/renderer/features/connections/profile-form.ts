// The "Add connection" form and its checks, before the core sees it (the core checks again with
// the same shared rules). The client secret lives only in this form's state until it is sent.
import { accountIdSchema } from '../../../shared/domain/campaign';
import type { FieldProblem } from '../../../shared/domain/campaign';
import type { ChannelInput } from '../../../shared/ipc/contract';
import { profileCreateProblems } from '../../../shared/domain/profile';

export interface ProfileForm {
  name: string;
  baseUrl: string;
  authUrl: string;
  pushUrl: string;
  clientId: string;
  clientSecret: string;
  flow: 'client_credentials' | 'authorization_code';
  redirectUri: string;
}

export const NEW_PROFILE_FORM: ProfileForm = {
  name: '',
  baseUrl: '',
  authUrl: '',
  pushUrl: '',
  clientId: '',
  clientSecret: '',
  flow: 'client_credentials',
  redirectUri: '',
};

/** The shared profile rules (src/shared/domain/profile.ts), as the core will check them. */
export function profileFormProblems(f: ProfileForm): FieldProblem[] {
  return profileCreateProblems(profileCreateInput(f));
}

export function profileCreateInput(f: ProfileForm): ChannelInput<'profiles.create'> {
  return {
    name: f.name.trim(),
    baseUrl: f.baseUrl.trim(),
    authUrl: f.authUrl.trim(),
    pushUrl: f.pushUrl.trim(),
    clientId: f.clientId.trim(),
    clientSecret: f.clientSecret,
    flow: f.flow,
    redirectUri: f.flow === 'authorization_code' ? f.redirectUri.trim() : null,
  };
}

/** Account ids are letters only (spec 4.1): say so before asking the service. */
export function accountIdProblem(id: string): string | null {
  if (id.trim() === '') return 'Account id is required';
  const r = accountIdSchema.safeParse(id.trim());
  return r.success ? null : 'Account ids contain letters only (e.g. acmeshoes)';
}
