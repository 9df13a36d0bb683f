// The time of day a watching command puts before each rebuild's line (`npm run build -- --watch`,
// `npm start -- --watch`).

/**
 * Returns a function that stamps a line with the time of day as `Date#toLocaleTimeString()` gives
 * it (the same options: hour, minute and second). Call it when the watch starts: making the
 * format loads the locale's data, about 25 ms the first time in a process, which would otherwise
 * fall on the first edit, between its files going live and the answers that show it.
 */
export function timeStamper(): (line: string) => string {
  const clock = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: 'numeric', second: 'numeric' });
  return (line) => `[${clock.format(new Date())}] ${line}\n`;
}
