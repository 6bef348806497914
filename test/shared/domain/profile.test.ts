// One set of profile rules: what the "Add connection" form refuses, the contract refuses and the
// store refuses, with the same words; what the form accepts, both accept.
import { afterEach, describe, expect, it } from 'vitest';
import {
  NEW_PROFILE_FORM,
  profileCreateInput,
  profileFormProblems,
  type ProfileForm,
} from '../../../src/renderer/features/connections/profile-form';
import { channels } from '../../../src/shared/ipc/contract';
import { PROFILE_LIMITS } from '../../../src/shared/domain/profile';
import { openTestStore, type TestStore } from '../../main/store/helpers';

const good: ProfileForm = {
  ...NEW_PROFILE_FORM,
  name: 'Prod',
  baseUrl: 'https://api.example.com',
  authUrl: 'https://auth.example.com',
  pushUrl: 'https://push.example.com',
  clientId: 'c1',
  clientSecret: 's3cret',
};

let t: TestStore | undefined;
afterEach(() => {
  t?.cleanup();
  t = undefined;
});

/** The verdicts of the three places that check a new profile, as the person would read them. */
function verdicts(form: ProfileForm) {
  const input = profileCreateInput(form);
  const contract = channels['profiles.create'].input.safeParse(input);
  t ??= openTestStore();
  const { clientSecret: _secret, ...fields } = input;
  let store: string | null = null;
  try {
    t.store.profiles.create(fields);
  } catch (e) {
    store = (e as Error).message;
  }
  return {
    form: profileFormProblems(form).map((p) => p.message),
    contract: contract.success ? [] : contract.error.issues.map((i) => i.message),
    store,
  };
}

describe('profile rules, one for the form, the contract and the store', () => {
  it('a complete connection passes all three', () => {
    expect(verdicts(good)).toEqual({ form: [], contract: [], store: null });
  });

  it.each([
    ['a service address with a query', { baseUrl: 'https://api.example.com/?token=abc' }, 'API address must not contain a query'],
    ['a fragment', { authUrl: 'https://auth.example.com/#x' }, 'Sign-in address must not contain a fragment'],
    ['plain http:// to another computer', { pushUrl: 'http://push.example.com' }, 'Push address uses plain http://'],
    ['credentials in the address', { authUrl: 'https://u:p@auth.example.com' }, 'must not contain a user name or password'],
    ['a name over the limit', { name: 'n'.repeat(PROFILE_LIMITS.name + 1) }, 'Name is too long'],
    ['a client id over the limit', { clientId: 'c'.repeat(PROFILE_LIMITS.clientId + 1) }, 'Client id is too long'],
  ] as const)('%s is refused by all three with the same words', (_what, change, words) => {
    const v = verdicts({ ...good, ...change });
    expect(v.form).toEqual([expect.stringContaining(words)]);
    expect(v.contract).toEqual(v.form);
    expect(v.store).toContain(words);
  });

  it('plain http:// to this computer is allowed everywhere (a local sandbox)', () => {
    expect(verdicts({ ...good, baseUrl: 'http://127.0.0.1:8080', authUrl: 'http://localhost:8080' })).toEqual({
      form: [],
      contract: [],
      store: null,
    });
  });

  it('a browser sign-in needs a redirect address, which may carry a query', () => {
    expect(verdicts({ ...good, flow: 'authorization_code' }).form).toEqual(['Redirect URI is required']);
    expect(verdicts({ ...good, flow: 'authorization_code', redirectUri: 'http://127.0.0.1:8765/cb?app=desk' })).toEqual({
      form: [],
      contract: [],
      store: null,
    });
  });

  it('the store keeps service addresses without a trailing slash, as the contract hands them on', () => {
    const parsed = channels['profiles.create'].input.parse(profileCreateInput({ ...good, baseUrl: 'https://api.example.com/v1/' }));
    expect(parsed.baseUrl).toBe('https://api.example.com/v1');
  });
});
