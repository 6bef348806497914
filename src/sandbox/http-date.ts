// HTTP-dates as the service writes them (the Date header, Retry-After as a date): defined once, so
// the date_header variant changes every one of them at once.
import type { HttpDateForm } from './variants';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number): string => String(n).padStart(2, '0');

/**
 * An HTTP-date (RFC 9110 5.6.7) for `ms`, whole seconds: the IMF-fixdate every current server
 * writes, or under the date_header variant one of the obsolete forms a recipient must still accept.
 */
export function httpDate(ms: number, form?: HttpDateForm): string {
  const d = new Date(ms);
  const time = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
  const day = WEEKDAYS[d.getUTCDay()];
  const month = MONTHS[d.getUTCMonth()];
  if (form === 'rfc850') return `${day}, ${two(d.getUTCDate())}-${month}-${two(d.getUTCFullYear() % 100)} ${time} GMT`;
  if (form === 'asctime') return `${day.slice(0, 3)} ${month} ${String(d.getUTCDate()).padStart(2, ' ')} ${time} ${d.getUTCFullYear()}`;
  return d.toUTCString();
}
