export { systemClock, ManualClock, type Clock, type TimerHandle } from './clock';
export {
  parseRateLimitPolicy,
  parseRateLimit,
  parseRetryAfter,
  retryAfterDelayMs,
  parseHttpDate,
  type PolicyEntry,
  type RemainingEntry,
  type HeaderValue,
} from './headers';
export { documentedGuess, budgetOfMethod, type Budget, type EndpointGroup } from './tiers';
export { BudgetModel, type ModelState, type ResponseInfo, type WindowView } from './window-model';
export { refillShownBy, type Refill, type WindowPolicy } from './policy';
export {
  RateLimitScheduler,
  QueueCancelledError,
  PRIORITIES,
  type Priority,
  type BudgetKey,
  type ScheduleOptions,
  type ScheduledResponse,
  type HeaderBag,
  type BudgetSnapshot,
  type SchedulerSnapshot,
  type SchedulerOptions,
} from './scheduler';
