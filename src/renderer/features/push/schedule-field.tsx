// "When": now, or scheduled at a wall time in UTC or in each subscriber's zone, with what that
// means in the manager's own time spelled out, and one-click fixes once the time has passed.
// Used by the composer and by the editor of a future scheduled task.
import { TIME_PASSED_WORDS } from '../../forms/push-words';
import { clockSkewNote, describeSchedule, localZone, msToWall, scheduleZoneWarning, timeFixes, wallToMs } from '../../forms/schedule';

export interface ScheduleValue {
  mode: 'immediate' | 'scheduled';
  executionLocal: string;
  userTimeZone: 0 | 1;
}

export function ScheduleField(props: {
  value: ScheduleValue;
  onChange(patch: Partial<ScheduleValue>): void;
  /**
   * A part of the schedule was done with, by the rules' field name: the time when its picker is left,
   * the clock when one is chosen. Not the Now / Scheduled choice: a person who just chose Scheduled
   * is about to pick the time and is not told yet that it is missing.
   */
  onTouch?(field: 'executionTime' | 'userTimeZone'): void;
  serviceNow: number;
  /** The service's clock minus this computer's (ms), when known: said when it is a minute or more. */
  serviceOffsetMs?: number;
  problems?: string[];
  /** A task's time can be moved, but it cannot become an immediate push. */
  scheduledOnly?: boolean;
  testPrefix?: string;
  disabled?: boolean;
}) {
  const {
    value,
    onChange,
    onTouch,
    serviceNow,
    serviceOffsetMs,
    problems = [],
    scheduledOnly = false,
    testPrefix = 'push',
    disabled = false,
  } = props;
  const at = wallToMs(value.executionLocal);
  const scheduled = value.mode === 'scheduled';
  const passed = scheduled && at !== undefined && at <= serviceNow;
  const zoneWord = value.userTimeZone === 0 ? 'UTC' : "subscriber's time";
  const zoneWarning = scheduleZoneWarning(value, serviceNow);
  const skew = clockSkewNote(serviceOffsetMs);
  return (
    <div className={`form-row${problems.length > 0 ? ' has-problem' : ''}`} data-field="executionTime">
      <span className="form-label" id={`${testPrefix}-when-label`}>
        When
      </span>
      <div className="form-control">
        {!scheduledOnly ? (
          <div className="inline-options" role="radiogroup" aria-labelledby={`${testPrefix}-when-label`}>
            <label>
              <input
                type="radio"
                name={`${testPrefix}-mode`}
                checked={!scheduled}
                onChange={() => onChange({ mode: 'immediate' })}
                data-testid={`${testPrefix}-immediate`}
                disabled={disabled}
              />{' '}
              Now
            </label>
            <label>
              <input
                type="radio"
                name={`${testPrefix}-mode`}
                checked={scheduled}
                onChange={() => onChange({ mode: 'scheduled' })}
                data-testid={`${testPrefix}-scheduled`}
                disabled={disabled}
              />{' '}
              Scheduled
            </label>
          </div>
        ) : null}
        {scheduled ? (
          <div className="schedule">
            <label className="schedule-zone">
              <span className="muted">Clock</span>{' '}
              <select
                value={value.userTimeZone}
                onChange={(e) => {
                  onTouch?.('userTimeZone');
                  onChange({ userTimeZone: e.target.value === '1' ? 1 : 0 });
                }}
                data-testid={`${testPrefix}-userTimeZone`}
                aria-label="Time zone the schedule follows"
                disabled={disabled}
              >
                <option value={0}>UTC (one moment for everyone)</option>
                <option value={1}>Each subscriber's own time zone</option>
              </select>
            </label>
            <label className="schedule-time">
              <input
                type="datetime-local"
                aria-label={`Send at (${zoneWord})`}
                value={value.executionLocal}
                onChange={(e) => onChange({ executionLocal: e.target.value })}
                onBlur={() => onTouch?.('executionTime')}
                data-testid={`${testPrefix}-executionTime`}
                disabled={disabled}
              />{' '}
              <span className="muted">{zoneWord}</span>
            </label>
            {at !== undefined ? (
              <div
                className={passed ? 'form-problem' : 'schedule-summary'}
                data-testid={`${testPrefix}-schedule-summary`}
                aria-live="polite"
              >
                {passed ? 'This time has passed: ' : 'Goes out '}
                {describeSchedule(at, value.userTimeZone)}
              </div>
            ) : (
              <div className="form-hint muted">
                Pick the day and time in {zoneWord === 'UTC' ? 'UTC' : "the subscribers' own clocks"}; your zone is {localZone()}.
              </div>
            )}
            {skew ? (
              <div className="form-hint muted" data-testid={`${testPrefix}-clock-note`}>
                {skew}
              </div>
            ) : null}
            {zoneWarning ? (
              <div className="capability-warnings" role="status" data-testid={`${testPrefix}-zone-warning`}>
                <p className="warning-head">Some subscribers will miss it</p>
                <p>{zoneWarning}</p>
              </div>
            ) : null}
            {passed ? (
              <div className="time-fixes" role="group" aria-label="Pick a new time">
                {timeFixes(at, serviceNow)
                  .filter((fix) => !(scheduledOnly && fix.executionTime === null))
                  .map((fix) => (
                    <button
                      key={fix.label}
                      type="button"
                      disabled={disabled}
                      data-testid={`${testPrefix}-fix-${fix.executionTime === null ? 'now' : fix.label.startsWith('In') ? 'hour' : 'tomorrow'}`}
                      onClick={() =>
                        onChange(
                          fix.executionTime === null
                            ? { mode: 'immediate', executionLocal: '' }
                            : { executionLocal: msToWall(fix.executionTime) },
                        )
                      }
                    >
                      {fix.label}
                    </button>
                  ))}
              </div>
            ) : null}
          </div>
        ) : null}
        {problems
          // "This time has passed" above says it already, with the fixes (the rules' words or the composer's).
          .filter((m) => !(passed && (m.includes('must be in the future') || m === TIME_PASSED_WORDS)))
          .map((m) => (
            <div key={m} className="form-problem" role="alert" data-testid="problem-executionTime">
              {m}
            </div>
          ))}
      </div>
    </div>
  );
}
