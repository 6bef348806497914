// The push rules' problems in the composer's words. The shared rules (shared/domain/push.ts) speak
// the interface's language because the sandbox answers with them ("target.include.apps cannot be
// empty"); a person sees the labels of the window instead ("Apps: pick at least one app to send
// to."), and never a field path, whatever message a rule adds later.
import type { FieldProblem } from '../../shared/domain/campaign';
import { MAX_TARGET_APPS, MAX_TITLE_LENGTH } from '../../shared/domain/push';

/** The composer's label of each field and target attribute the rules name (the form shows these too). */
export const PUSH_LABELS: Readonly<Record<string, string>> = {
  title: 'Title',
  url: 'URL',
  itemDescription: 'Description',
  performer: 'Performer',
  thumbnailUrl: 'Thumbnail URL',
  icon: 'Icon URL',
  iconUrl: 'Icon URL',
  executionTime: 'When',
  userTimeZone: 'Clock',
  apps: 'Apps',
  countries: 'Countries',
  regions: 'Regions',
  languages: 'Languages',
  os: 'OS ids',
  browsers: 'Browser ids',
  users: 'Users',
  subscribed_age: 'Subscribed age',
  user_data: 'User data',
  include: 'Include',
  exclude: 'Exclude',
};

/** A scheduled time that has passed, in words (the schedule field says it its own way, with fixes). */
export const TIME_PASSED_WORDS = 'When: this time has passed; pick a later one.';

/** Whole messages of the rules said again, by the rule's exact words. */
const SAID: ReadonlyArray<[RegExp, (m: RegExpMatchArray) => string]> = [
  [/^title cannot be empty$/, () => 'Title is needed: the line the subscribers see first.'],
  [/^title is too long/, () => `Title is too long: at most ${MAX_TITLE_LENGTH} characters.`],
  [/^url cannot be empty$/, () => 'URL is needed: where a click on the push leads.'],
  [/^performer cannot be empty$/, () => 'Performer is needed: who sends the push (recorded by the service).'],
  [/^thumbnailUrl must be a valid URL$/, () => 'Thumbnail URL is not a web address (https://...).'],
  [/^iconUrl must be an HTTP\/HTTPS URL$/, () => 'Icon URL must be a web address starting with http:// or https://.'],
  [/^userTimeZone must be/, () => "Clock: choose UTC or each subscriber's own time zone."],
  [/^target\.include\.apps cannot be empty$/, () => 'Apps: pick at least one app to send to.'],
  [/^target\.include\.apps cannot contain more than/, () => `Apps: at most ${MAX_TARGET_APPS} apps in one push.`],
  [
    /^Targeting attribute (\w+) cannot have values in both include and exclude$/,
    (m) => `${PUSH_LABELS[m[1]] ?? m[1]}: either include or exclude, not both.`,
  ],
  [
    /^user_data attribute (.+) cannot be used in both include and exclude$/,
    (m) => `User data ${m[1]}: either include or exclude, not both.`,
  ],
  [/^user_data attribute (.+) must be a non-empty array of strings$/, (m) => `User data ${m[1]}: give at least one value.`],
  [/^is_push_delivery_active is reserved/, () => 'User data is_push_delivery_active is the service’s own and cannot be used to target.'],
  [/^executionTime is required for scheduled push$/, () => 'When: pick the day and time to send it.'],
  [/^executionTime must be in the future for scheduled push$/, () => TIME_PASSED_WORDS],
  [
    /^executionTime must not be in the future for immediate push/,
    () => 'When: a push sent now cannot have a later time; choose Scheduled.',
  ],
  [/^executionTime is not a valid date and time$/, () => 'When: not a complete date and time.'],
];

/** Any field path or field name of the rules left in a message, as the window's label. */
function labelled(text: string): string {
  return text
    .replace(/\btarget\.(?:(include|exclude)\.)?([A-Za-z_]+)\b/g, (_, side: string | undefined, key: string) =>
      side ? `${PUSH_LABELS[side]} ${(PUSH_LABELS[key] ?? key).toLowerCase()}` : (PUSH_LABELS[key] ?? key),
    )
    .replace(
      /\b(itemDescription|thumbnailUrl|iconUrl|executionTime|userTimeZone|user_data|subscribed_age)\b/g,
      (k: string) => PUSH_LABELS[k] ?? k,
    );
}

/** One problem of the push rules as the composer says it: led by the field's label, ending in a full stop. */
export function pushProblemInWords(p: FieldProblem): string {
  for (const [pattern, say] of SAID) {
    const m = p.message.match(pattern);
    if (m) return say(m);
  }
  const text = labelled(p.message);
  const said = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(said) ? said : `${said}.`;
}
