/** Calendar arithmetic for credits (UTC months) and daily caps (Europe/Berlin days). */

/** `YYYY-MM` of the UTC calendar month: monthly credits renew at its start. */
export function utcMonth(now: Date): string {
  return now.toISOString().slice(0, 7);
}

const berlinDate = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Berlin',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

const HOUR_MS = 3_600_000;
let lastHour = Number.NaN;
let lastDay = '';

/** `YYYY-MM-DD` of the calendar day in Europe/Berlin: daily caps count per such day. */
export function berlinDay(now: Date): string {
  // Berlin is a whole number of hours off UTC, so its day changes only on a UTC hour: one Intl call per hour, not
  // one per request.
  const hour = Math.floor(now.getTime() / HOUR_MS);
  if (hour !== lastHour) {
    lastDay = berlinDate.format(now);
    lastHour = hour;
  }
  return lastDay;
}

const berlinOffset = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Berlin', timeZoneName: 'longOffset' });

/** The UTC offset of Europe/Berlin at an instant, as `+01:00` or `+02:00`. */
function berlinOffsetAt(instant: Date): string {
  const name = berlinOffset.formatToParts(instant).find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
  return name === 'GMT' ? '+00:00' : name.slice(3);
}

/** The next midnight in Europe/Berlin after `now`, as an ISO date-time with its Berlin offset. */
export function nextBerlinMidnight(now: Date): string {
  const [year, month, day] = berlinDay(now).split('-').map(Number);
  const nextDay = new Date(Date.UTC(year, month - 1, day + 1)).toISOString().slice(0, 10);
  // Midnight is never inside a DST switch (they happen at 02:00/03:00), so the offset just after it is the right one.
  const guess = new Date(`${nextDay}T00:00:00+01:00`);
  const offset = berlinOffsetAt(guess);
  return `${nextDay}T00:00:00${offset}`;
}
