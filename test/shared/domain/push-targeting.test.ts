// Spec 2.5 rule 4 in the shared push rules (the sandbox enforces them, the desk checks drafts with
// them): an attribute name is recognised only if it is one of the spec's, never because
// Object.prototype happens to have a property of that name.
import { describe, expect, it } from 'vitest';
import { pushEventProblems, pushEventSchema, schemaFailureMessage, targetProblems, targetSchema } from '../../../src/shared/domain/push';

const NOW = 1_900_000_000_000;
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype).filter((n) => n !== '__proto__');

/** A target as it arrives in a JSON body: JSON.parse makes `__proto__` an own key like any other. */
const fromJson = (text: string): unknown => JSON.parse(text);
const event = (include: Record<string, unknown>, exclude?: Record<string, unknown>) =>
  fromJson(
    JSON.stringify({
      title: 'T',
      url: 'https://news.example.com/',
      performer: 'editor@example.com',
      target: { include: { apps: ['1001'], ...include }, ...(exclude === undefined ? {} : { exclude }) },
    }),
  );

/** Every problem of an event: the schema's (as a draft check would report it) or the rules'. */
function problemsOf(raw: unknown): string[] {
  const parsed = pushEventSchema.safeParse(raw);
  if (!parsed.success) return [schemaFailureMessage(parsed.error)];
  return pushEventProblems(parsed.data, 'immediate', NOW).map((p) => p.message);
}

describe('targeting attribute names that Object.prototype also has', () => {
  it.each(PROTOTYPE_NAMES)('refuses %s at the top of include and of exclude', (name) => {
    expect(problemsOf(event({ [name]: ['x'] }))).toEqual([`Unsupported targeting attribute: ${name}`]);
    expect(problemsOf(event({}, { [name]: ['x'] }))).toEqual([`Unsupported targeting attribute: ${name}`]);
  });

  it('refuses __proto__ at the top of include and of exclude, although parsing would drop it', () => {
    const include = fromJson(
      '{"title":"T","url":"https://x.example/","performer":"p","target":{"include":{"apps":["1001"],"__proto__":["x"]}}}',
    );
    expect(problemsOf(include)).toEqual(['Unsupported targeting attribute: __proto__']);
    const exclude = fromJson(
      '{"title":"T","url":"https://x.example/","performer":"p","target":{"include":{"apps":["1001"]},"exclude":{"__proto__":{}}}}',
    );
    expect(problemsOf(exclude)).toEqual(['Unsupported targeting attribute: __proto__']);
    const parsed = targetSchema.safeParse(fromJson('{"include":{"apps":["1001"],"__proto__":{"polluted":true}}}'));
    expect(parsed.success).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('still accepts the spec attributes, and a __proto__ written as a plain property name elsewhere', () => {
    expect(problemsOf(event({ countries: ['DE'], os: [1], user_data: { plan: ['gold'] } }, { languages: ['fr'] }))).toEqual([]);
    expect(
      problemsOf(fromJson('{"title":"__proto__","url":"https://x.example/","performer":"p","target":{"include":{"apps":["1001"]}}}')),
    ).toEqual([]);
  });
});

describe('user_data attribute names are free-form', () => {
  it.each(['constructor', 'toString', 'hasOwnProperty', 'valueOf'])('accepts %s as a user_data attribute', (name) => {
    expect(problemsOf(event({ user_data: { [name]: ['a'] } }))).toEqual([]);
  });

  it('judges the values of such names like any other', () => {
    expect(problemsOf(event({ user_data: { constructor: [] } }))).toEqual([
      'user_data attribute constructor must be a non-empty array of strings',
    ]);
  });

  it('sees no include/exclude clash for a name only the prototype has (rule 6)', () => {
    const t = targetSchema.parse(
      fromJson('{"include":{"apps":["1001"],"user_data":{"toString":["a"]}},"exclude":{"user_data":{"plan":["b"]}}}'),
    );
    expect(targetProblems(t)).toEqual([]);
    const clash = targetSchema.parse(
      fromJson('{"include":{"apps":["1001"],"user_data":{"toString":["a"]}},"exclude":{"user_data":{"toString":["b"]}}}'),
    );
    expect(targetProblems(clash).map((p) => p.message)).toEqual([
      'user_data attribute toString cannot be used in both include and exclude',
    ]);
  });
});
