// The service's words from every common error body shape (DECISIONS client 12): shown as the
// service wrote them, joined and bounded, with the field names it gave, and never a secret.
import { describe, expect, it } from 'vitest';
import { readServerWords } from '../../../src/main/service/server-words';

const words = (body: unknown, status = 400) => readServerWords(body, [], { status });

describe('reading the service words from an error body', () => {
  it('reads `message` (our sandbox, the push API)', () => {
    expect(words({ http_status: 400, message: 'name cannot be empty' })?.text).toBe('name cannot be empty');
    expect(words({ httpStatus: 403, message: 'Not authorized to send notifications for specified application' })?.text).toBe(
      'Not authorized to send notifications for specified application',
    );
  });

  it('reads RFC 9457 problem details: the detail, with a title that says more than the status phrase', () => {
    expect(
      words({ type: 'about:blank', title: 'Bad Request', status: 400, detail: 'cpc is required when bid_strategy is FIXED' })?.text,
    ).toBe('cpc is required when bid_strategy is FIXED');
    expect(
      words({ type: 'https://x.test/probs/budget', title: 'Budget too small', detail: 'spending_limit must be at least 50' })?.text,
    ).toBe('Budget too small: spending_limit must be at least 50');
    // A title alone is better than nothing, even the status phrase.
    expect(words({ type: 'about:blank', title: 'Unprocessable Entity', status: 422 }, 422)?.text).toBe('Unprocessable Entity');
  });

  it('reads RFC 6749 error and error_description together', () => {
    expect(words({ error: 'invalid_client', error_description: 'Client authentication failed' })?.text).toBe(
      'invalid_client: Client authentication failed',
    );
    expect(words({ error: 'invalid_grant' })?.text).toBe('invalid_grant');
  });

  it('reads errors[] of strings and of objects, naming their fields and returning them as field problems', () => {
    const w = words({
      message: 'Validation failed',
      errors: [
        'name is too long (max 255)',
        { field: 'cpc', message: 'must be greater than 0' },
        { pointer: '#/spending_limit', detail: 'must be at least 50' },
        { source: { pointer: '/data/attributes/daily_cap' }, title: 'is not a number' },
        { path: ['start_date'], description: 'is in the past' },
      ],
    });
    expect(w?.text).toBe(
      'Validation failed: name is too long (max 255); cpc: must be greater than 0; spending_limit: must be at least 50; daily_cap: is not a number; start_date: is in the past',
    );
    expect(w?.problems).toEqual([
      { field: 'cpc', message: 'must be greater than 0' },
      { field: 'spending_limit', message: 'must be at least 50' },
      { field: 'daily_cap', message: 'is not a number' },
      { field: 'start_date', message: 'is in the past' },
    ]);
  });

  it('does not repeat a field name the message already starts with', () => {
    expect(words({ errors: [{ field: 'name', message: 'name cannot be empty' }] })?.text).toBe('name cannot be empty');
    expect(words({ errors: [{ field: 'name', message: 'names must be unique' }] })?.text).toBe('name: names must be unique');
  });

  it('reads a map of field -> messages, and FastAPI detail[] with loc and msg', () => {
    const map = words({
      message: 'The given data was invalid.',
      errors: { name: ['is required', 'is too short'], cpc: 'must be positive' },
    });
    expect(map?.text).toBe('The given data was invalid. name: is required; name: is too short; cpc: must be positive');
    expect(map?.problems.map((p) => p.field)).toEqual(['name', 'name', 'cpc']);
    const fastapi = words(
      { detail: [{ loc: ['body', 'bid_strategy'], msg: 'value is not a valid enumeration member', type: 'type_error.enum' }] },
      422,
    );
    expect(fastapi?.text).toBe('bid_strategy: value is not a valid enumeration member');
  });

  it('reads message as a list, with an error that only repeats the status phrase kept for last', () => {
    const listed = words({ statusCode: 400, message: ['name must be a string', 'cpc must be a positive number'], error: 'Bad Request' });
    expect(listed?.text).toBe('name must be a string; cpc must be a positive number');
    expect(words({ statusCode: 403, message: [], error: 'Forbidden' }, 403)?.text).toBe('Forbidden');
    // An error code that says more than the phrase is still shown first.
    expect(words({ message: ['budget too small'], error: 'BUDGET_RULE' })?.text).toBe('BUDGET_RULE: budget too small');
  });

  it('reads a nested error object (error: {message, errors})', () => {
    expect(
      words({ error: { code: 400, message: 'Invalid campaign', errors: [{ message: 'Unknown objective', field: 'marketing_objective' }] } })
        ?.text,
    ).toBe('Invalid campaign: marketing_objective: Unknown objective');
    expect(words({ error: { message: 'Quota exceeded' } }, 429)?.text).toBe('Quota exceeded');
  });

  it('reads a JSON string body and a plain-text body as they are', () => {
    expect(words('Campaign name already taken')?.text).toBe('Campaign name already taken');
  });

  it('says nothing when the body has no words', () => {
    expect(words(undefined)).toBeUndefined();
    expect(words({ http_status: 400 })).toBeUndefined();
    expect(words({ errors: [] })).toBeUndefined();
    expect(words([1, 2, 3])).toBeUndefined();
    expect(words(42)).toBeUndefined();
  });

  it('says the same thing once when several members repeat it', () => {
    expect(words({ message: 'name cannot be empty', detail: 'name cannot be empty', errors: ['name cannot be empty'] })?.text).toBe(
      'name cannot be empty',
    );
  });

  it('keeps the words to one printable line, bounded, however many errors the body lists', () => {
    const many = words({ errors: Array.from({ length: 5_000 }, (_, i) => ({ field: `f${i}`, message: 'bad\nvalue\u0000' })) });
    expect(many?.text.length).toBeLessThanOrEqual(501);
    expect([...(many?.text ?? '')].some((ch) => ch.charCodeAt(0) < 0x20)).toBe(false);
    expect(many?.problems.length).toBeLessThanOrEqual(50);
    expect(many?.problems[0]).toEqual({ field: 'f0', message: 'bad value' });
  });

  it('removes every secret from each piece before joining and cutting', () => {
    const secret = 'Sx9 !q(z)';
    const body = {
      message: `${'x'.repeat(495)} client_secret=${new URLSearchParams({ s: secret }).toString().slice(2)}`,
      errors: [{ field: secret, message: secret }],
    };
    const w = readServerWords(body, [secret]);
    const shown = JSON.stringify(w);
    expect(shown).not.toContain('Sx9');
    expect(shown).toContain('[redacted]');
  });
});
