// A connection profile's rules, written once: the "Add connection" and "Edit connection" forms,
// the IPC contract and the store all check a profile with these schemas, so an address the form
// accepts is never refused later with other words, and the limits are the same everywhere.
import { z } from 'zod';
import type { FieldProblem } from './campaign';

export const SIGN_IN_FLOWS = ['client_credentials', 'authorization_code'] as const;
export type SignInFlow = (typeof SIGN_IN_FLOWS)[number];

export const PROFILE_LIMITS = { name: 100, clientId: 200, clientSecret: 1000, address: 2000 } as const;

/** What each address is called where the person reads a problem with it. */
export const ADDRESS_LABELS = {
  baseUrl: 'API address',
  authUrl: 'Sign-in address',
  pushUrl: 'Push address',
  redirectUri: 'Redirect URI',
} as const;
export type AddressField = keyof typeof ADDRESS_LABELS;

/** Profile ids double as keychain account names, so they stay short and plain. */
export const profileIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'profile id must be 1-64 letters, digits, _ or -');

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Whether a host name or address refers to this computer. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  if (LOOPBACK_NAMES.has(h) || h.endsWith('.localhost')) return true;
  // All of 127.0.0.0/8 is loopback.
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * Why this address may not be used, worded to follow its label ("API address ..."), or null.
 * Plain http:// carries the client secret and every token in clear text, so it is allowed only to
 * this computer (a local sandbox or a proxy the person runs). Service addresses get paths appended,
 * so they carry no query or fragment; a redirect URI must match what is registered, so it may
 * carry a query.
 */
export function addressProblem(address: string, kind: 'service' | 'redirect' = 'service'): string | null {
  const v = address.trim();
  if (v === '') return 'is required';
  if (v.length > PROFILE_LIMITS.address) return `is too long (at most ${PROFILE_LIMITS.address} characters)`;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    return 'is not a valid address (e.g. https://api.example.com)';
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return 'must start with https:// (or http:// for a local test server)';
  if (u.host === '') return 'is not a valid address (e.g. https://api.example.com)';
  if (u.username || u.password) return 'must not contain a user name or password';
  if (u.protocol === 'http:' && !isLoopbackHost(u.hostname)) {
    return `uses plain http://, which would send the client secret and tokens unencrypted to ${u.hostname}; use https:// (plain http:// is allowed only for this computer: localhost, 127.0.0.1, ::1)`;
  }
  if (v.includes('#')) return 'must not contain a fragment (#)';
  if (kind === 'service' && v.includes('?')) return 'must not contain a query (?): paths are added to it';
  return null;
}

function addressSchema(field: AddressField, kind: 'service' | 'redirect') {
  return z
    .string()
    .trim()
    .superRefine((v, ctx) => {
      const problem = addressProblem(v, kind);
      if (problem) ctx.addIssue({ code: 'custom', message: `${ADDRESS_LABELS[field]} ${problem}` });
    });
}

/** A service address without its trailing slash, since paths are appended to it. */
const serviceAddress = (field: AddressField) => addressSchema(field, 'service').transform((s) => s.replace(/\/+$/, ''));

const nameSchema = z
  .string()
  .trim()
  .min(1, 'Give the connection a name')
  .max(PROFILE_LIMITS.name, `Name is too long (at most ${PROFILE_LIMITS.name} characters)`);
const clientIdSchema = z
  .string()
  .trim()
  .min(1, 'Client id is required')
  .max(PROFILE_LIMITS.clientId, `Client id is too long (at most ${PROFILE_LIMITS.clientId} characters)`);
/** Goes into the keychain and never comes back out of main. */
export const clientSecretSchema = z
  .string()
  .min(1, 'Client secret is required')
  .max(PROFILE_LIMITS.clientSecret, `Client secret is too long (at most ${PROFILE_LIMITS.clientSecret} characters)`);

/** The fields of a profile the person edits (never the secret), each checked alone. */
export const profileFieldsSchema = z.object({
  name: nameSchema,
  baseUrl: serviceAddress('baseUrl'),
  authUrl: serviceAddress('authUrl'),
  pushUrl: serviceAddress('pushUrl'),
  clientId: clientIdSchema,
  flow: z.enum(SIGN_IN_FLOWS),
  redirectUri: addressSchema('redirectUri', 'redirect').nullable(),
});
export type ProfileFields = z.output<typeof profileFieldsSchema>;

export const REDIRECT_REQUIRED = `${ADDRESS_LABELS.redirectUri} is required for a browser sign-in`;

/** The one rule across fields: a browser sign-in needs a redirect address to come back to. */
export function flowProblem(flow: SignInFlow, redirectUri: string | null | undefined): FieldProblem | null {
  return flow === 'authorization_code' && !redirectUri ? { field: 'redirectUri', message: REDIRECT_REQUIRED } : null;
}

/** A new profile as the person enters it: its fields and its client secret. */
export const profileCreateSchema = profileFieldsSchema
  .extend({ clientSecret: clientSecretSchema, redirectUri: profileFieldsSchema.shape.redirectUri.default(null) })
  .superRefine((p, ctx) => {
    const problem = flowProblem(p.flow, p.redirectUri);
    if (problem) ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
  });
export type ProfileCreate = z.input<typeof profileCreateSchema>;

const FORM_ORDER = ['name', 'baseUrl', 'authUrl', 'pushUrl', 'clientId', 'clientSecret', 'flow', 'redirectUri'];

/** The problems of a new profile, one per field at most, in the order the form shows its fields. */
export function profileCreateProblems(input: ProfileCreate): FieldProblem[] {
  const parsed = profileCreateSchema.safeParse(input);
  if (parsed.success) return [];
  const out: FieldProblem[] = [];
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? '');
    if (!out.some((p) => p.field === field)) out.push({ field, message: issue.message });
  }
  return out.sort((a, b) => FORM_ORDER.indexOf(a.field) - FORM_ORDER.indexOf(b.field));
}

/** The addresses the stored client secret is posted to: the token endpoints (spec 4.3 and 5). */
const SECRET_ADDRESSES = ['authUrl', 'baseUrl'] as const;

const originOf = (address: string): string | null => {
  try {
    return new URL(address.trim()).origin;
  } catch {
    return null;
  }
};

/**
 * The address field that would send the stored secret to an origin it was not entered for, or
 * null. A secret goes only where the person sent it: moving a token endpoint to another origin
 * needs the secret typed again (otherwise anyone who can edit a connection could collect it).
 */
export function secretAddressMoved(
  before: Readonly<Record<(typeof SECRET_ADDRESSES)[number], string>>,
  after: Readonly<Record<(typeof SECRET_ADDRESSES)[number], string>>,
): (typeof SECRET_ADDRESSES)[number] | null {
  return SECRET_ADDRESSES.find((k) => originOf(after[k]) !== originOf(before[k])) ?? null;
}

/** Why the secret must be typed again after `field` moved (the edit form and the core say the same). */
export const secretAgainMessage = (field: (typeof SECRET_ADDRESSES)[number]): string =>
  `The ${ADDRESS_LABELS[field]} now points to another server: enter the client secret again to send it there (a stored secret only goes where it was entered for).`;
