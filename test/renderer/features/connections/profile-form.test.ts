import { describe, expect, it } from 'vitest';
import { channels } from '../../../../src/shared/ipc/contract';
import {
  accountIdProblem,
  NEW_PROFILE_FORM,
  profileCreateInput,
  profileFormProblems,
} from '../../../../src/renderer/features/connections/profile-form';

const good = {
  ...NEW_PROFILE_FORM,
  name: 'Prod',
  baseUrl: 'https://api.example.com',
  authUrl: 'https://auth.example.com',
  pushUrl: 'https://push.example.com',
  clientId: 'c1',
  clientSecret: 's3cret',
};

describe('add connection form', () => {
  it('accepts a complete client-credentials connection, and its input passes the contract', () => {
    expect(profileFormProblems(good)).toEqual([]);
    expect(channels['profiles.create'].input.safeParse(profileCreateInput(good)).success).toBe(true);
  });

  it('names every missing field', () => {
    expect(profileFormProblems(NEW_PROFILE_FORM).map((p) => p.field)).toEqual([
      'name',
      'baseUrl',
      'authUrl',
      'pushUrl',
      'clientId',
      'clientSecret',
    ]);
  });

  it('refuses non-http addresses and addresses carrying credentials', () => {
    expect(profileFormProblems({ ...good, baseUrl: 'ftp://x.example' })[0].message).toMatch(/https:\/\//);
    expect(profileFormProblems({ ...good, pushUrl: 'https://u:p@x.example' })[0].message).toMatch(/user name or password/);
  });

  it('needs a redirect URI for the authorization-code flow only, and sends null otherwise', () => {
    expect(profileFormProblems({ ...good, flow: 'authorization_code' }).map((p) => p.field)).toEqual(['redirectUri']);
    expect(profileCreateInput({ ...good, redirectUri: 'https://x' }).redirectUri).toBeNull();
  });

  it('checks account ids are letters only', () => {
    expect(accountIdProblem('acme123')).toMatch(/letters only/);
    expect(accountIdProblem('')).toMatch(/required/);
    expect(accountIdProblem('acmeshoes')).toBeNull();
  });
});
