import { afterEach, describe, expect, it, vi } from 'vitest';
import { timeStamper } from '../generator/cli/time-stamp.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('timeStamper', () => {
  it('stamps a line with the time of day as Date#toLocaleTimeString gives it, at the time of the call', () => {
    vi.useFakeTimers();
    // Made first, as the watch makes it, then used at later times.
    const stamp = timeStamper();
    for (const at of [
      new Date(2026, 0, 2, 3, 4, 5),
      new Date(2026, 6, 15, 15, 59, 59),
      new Date(2026, 11, 31, 0, 0, 0),
    ]) {
      vi.setSystemTime(at);
      expect(stamp('entries/1660/1660-01-05.html: rebuilt in 12 ms, 3 files changed')).toBe(
        `[${at.toLocaleTimeString()}] entries/1660/1660-01-05.html: rebuilt in 12 ms, 3 files changed\n`,
      );
    }
  });
});
