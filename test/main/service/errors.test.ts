import { inspect } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanServerMessage, redact, ServiceError, toDeskError } from '../../../src/main/service/errors';
import { TokenSet } from '../../../src/main/service/oauth';
import { secretSpellings } from './secret-spellings';

describe('secrets stay out of text', () => {
  // Spaces, the characters encodeURIComponent and a form body treat differently (!'()~*), the
  // form's own delimiters (+%&=), JSON's (" \\ /), HTML's (<>) and a letter outside ASCII.
  const CANARY = `Can ary!'()~*+%&="\\/<é> x`;
  const CLIENT_ID = 'demo client';

  it('redacts every spelling of a secret a server could echo, wherever it sits in the text', () => {
    const spellings = secretSpellings(CANARY, CLIENT_ID);
    expect(spellings.length).toBeGreaterThan(10);
    for (const [how, spelled] of spellings) {
      for (const text of [
        spelled,
        `client_secret=${spelled}&grant_type=x`,
        `{"error":"invalid_client","error_description":"bad: ${spelled}"}`,
      ]) {
        const out = redact(text, [CANARY], { clientId: CLIENT_ID });
        expect(out.includes(spelled), `${how} survived in ${out}`).toBe(false);
        expect(out).toContain('[redacted]');
      }
    }
  });

  it('redacts a secret whose special characters are escaped or not, independently of each other', () => {
    const alternatives = (ch: string): string[] => {
      const pct = [...Buffer.from(ch, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
      return [ch, pct.toUpperCase(), pct.toLowerCase(), ...(ch === ' ' ? ['+'] : [])];
    };
    const chars = Array.from(CANARY);
    fc.assert(
      fc.property(
        fc.array(fc.nat(3), { minLength: chars.length, maxLength: chars.length }),
        fc.string(),
        fc.string(),
        (picks, before, after) => {
          const spelled = chars
            .map((ch, i) => {
              const alts = alternatives(ch);
              return alts[picks[i] % alts.length];
            })
            .join('');
          const out = redact(`${before}${spelled}${after}`, [CANARY]);
          return !out.includes(spelled) && out.includes('[redacted]');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('leaves text without the secret as it is, and ignores values too short to be secrets', () => {
    const text = `Client authentication failed (request: grant_type=client_credentials&client_id=demo+client) 100% sure`;
    expect(redact(text, ['wrong', CANARY])).toBe(text);
    expect(redact('a bc abc', ['abc', 'bc'])).toBe('a bc abc');
  });

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

  it('removes the secret before cutting, so no prefix of it survives the cut', () => {
    const secret = 'cut-Me-Secret-31337';
    for (let pad = 480; pad <= 500; pad++) {
      const shown = cleanServerMessage(`${'x'.repeat(pad)}${secret} and more`, [secret]) ?? '';
      expect(shown.length).toBeLessThanOrEqual(501);
      expect(shown).not.toContain('cut-M');
    }
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
    expect(JSON.parse(JSON.stringify(e))).toEqual({
      kind: 'network',
      requestWritten: false,
      message: 'The service at x could not be reached.',
    });
    const desk = toDeskError(
      new ServiceError({
        kind: 'rate_limited',
        requestWritten: true,
        status: 429,
        retryAfterMs: 3000,
        violatedPolicies: ['minute'],
        message: 'wait',
      }),
    );
    expect(desk.toData()).toEqual({
      code: 'rate_limited',
      message: 'wait',
      details: { kind: 'rate_limited', requestWritten: true, status: 429, retryAfterMs: 3000, violatedPolicies: ['minute'] },
    });
    expect(toDeskError(e).code).toBe('offline');
  });
});
