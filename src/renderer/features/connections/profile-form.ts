// The "Add connection" form and its checks, before the core sees it (the core checks again with
// the contract's schema). The client secret lives only in this form's state until it is sent.
import { accountIdSchema } from '../../../shared/domain/campaign';
import type { FieldProblem } from '../../../shared/domain/campaign';
import type { ChannelInput } from '../../../shared/ipc/contract';
import { serviceAddressProblem } from '../../../shared/service-address';

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

export const NEW_PROFILE_FORM: ProfileForm = { name: '', baseUrl: '', authUrl: '', pushUrl: '', clientId: '', clientSecret: '', flow: 'client_credentials', redirectUri: '' };

function httpUrlProblem(field: string, label: string, v: string): FieldProblem | null {
  if (v.trim() === '') return { field, message: `${label} is required` };
  try {
    const u = new URL(v.trim());
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return { field, message: `${label} must start with https:// (or http:// for a local test server)` };
    const insecure = serviceAddressProblem(v.trim());
    if (insecure) return { field, message: `${label} ${insecure}` };
    if (u.username || u.password) return { field, message: `${label} must not contain a user name or password` };
    return null;
  } catch {
    return { field, message: `${label} is not a valid address (e.g. https://api.example.com)` };
  }
}

export function profileFormProblems(f: ProfileForm): FieldProblem[] {
  const out: FieldProblem[] = [];
  if (f.name.trim() === '') out.push({ field: 'name', message: 'Give the connection a name' });
  else if (f.name.trim().length > 100) out.push({ field: 'name', message: 'Name is too long (max 100)' });
  for (const [field, label] of [
    ['baseUrl', 'API address'],
    ['authUrl', 'Sign-in address'],
    ['pushUrl', 'Push address'],
  ] as const) {
    const p = httpUrlProblem(field, label, f[field]);
    if (p) out.push(p);
  }
  if (f.clientId.trim() === '') out.push({ field: 'clientId', message: 'Client id is required' });
  if (f.clientSecret === '') out.push({ field: 'clientSecret', message: 'Client secret is required' });
  if (f.flow === 'authorization_code') {
    const p = httpUrlProblem('redirectUri', 'Redirect URI', f.redirectUri);
    if (p) out.push(p);
  }
  return out;
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
