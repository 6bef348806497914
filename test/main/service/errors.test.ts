import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { cleanServerMessage, redact, ServiceError, toDeskError } from '../../../src/main/service/errors';
import { TokenSet } from '../../../src/main/service/oauth';

describe('secrets stay out of text', () => {
  it('redacts a secret in plain and URL-encoded form from server text', () => {
    const secret = 'p@ss word/+1';
    const text = `bad client_secret=${encodeURIComponent(secret)} or ${secret}`;
    const out = redact(text, [secret]);
    expect(out).not.toContain(secret);
    expect(out).not.toContain(encodeURIComponent(secret));
    expect(out).toContain('[redacted]');
  });

  it('keeps server messages to one printable line of bounded length', () => {
    expect(cleanServerMessage('line one\nline\ttwo\u0000', [])).toBe('line one line two');
    expect(cleanServerMessage('x'.repeat(2000), [])?.length).toBeLessThanOrEqual(501);
    expect(cleanServerMessage(42, [])).toBeUndefined();
  });

  it('never prints or serialises token values', () => {
    const t = new TokenSet('access-abc123456', 'refresh-xyz987654', 1_000, 3_600_000);
    const shown = `${JSON.stringify(t)} ${inspect(t)} ${inspect({ nested: t })}`;
    expect(shown).not.toContain('access-abc123456');
    expect(shown).not.toContain('refresh-xyz987654');
    expect(t.accessToken).toBe('access-abc123456');
    expect(t.expiresAt).toBe(3_601_000);
  });
});

describe('ServiceError', () => {
  it('travels as data with its kind and whether the request may have been applied', () => {
    const e = new ServiceError({ kind: 'network', requestWritten: false, message: 'The service at x could not be reached.' });
    expect(JSON.parse(JSON.stringify(e))).toEqual({ kind: 'network', requestWritten: false, message: 'The service at x could not be reached.' });
    const desk = toDeskError(new ServiceError({ kind: 'rate_limited', requestWritten: true, status: 429, retryAfterMs: 3000, violatedPolicies: ['minute'], message: 'wait' }));
    expect(desk.toData()).toEqual({
      code: 'rate_limited',
      message: 'wait',
      details: { kind: 'rate_limited', requestWritten: true, status: 429, retryAfterMs: 3000, violatedPolicies: ['minute'] },
    });
    expect(toDeskError(e).code).toBe('offline');
  });
});
