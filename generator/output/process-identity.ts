// Which process a pid names, beyond its being alive: a pid is reused (after a reboot, or once
// the numbers wrap), so a lock that names one (lock.ts) is held only by the very process that
// took it. Linux says in /proc when a process started (clock ticks since boot, /proc/<pid>/stat)
// and in which boot (/proc/sys/kernel/random/boot_id), and what it runs (/proc/<pid>/cmdline);
// elsewhere `ps` says what it runs, and where neither answers, a live pid is all there is.

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

/** When a process started: the boot it started in and its start time in that boot. */
export interface StartedAt {
  boot: string;
  start: string;
}

const HAS_PROC = existsSync('/proc/self/stat');

function bootId(): string | null {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return null;
  }
}

/** When the process `pid` started, from /proc; null where there is no /proc or no such process. */
export function startedAt(pid: number): StartedAt | null {
  if (!HAS_PROC) return null;
  const boot = bootId();
  if (boot === null) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The name (field 2) is in parentheses and may hold spaces: the fields are counted after it,
    // from the state (field 3); the start time is field 22.
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return start === undefined || !/^\d+$/.test(start) ? null : { boot, start };
  } catch {
    return null;
  }
}

/**
 * The command line of the process `pid` (arguments joined by spaces): /proc where there is one,
 * else `ps`; null when neither says (Windows, a process gone).
 */
export function commandLineOf(pid: number): string | null {
  if (HAS_PROC) {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0+$/, '').replaceAll('\0', ' ');
    } catch {
      return null;
    }
  }
  if (process.platform === 'win32') return null;
  try {
    const out = execFileSync('ps', ['-o', 'command=', '-p', String(pid)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5000,
    });
    return out.trim() === '' ? null : out.trim();
  } catch {
    return null;
  }
}

// The generator's commands as a process runs them: npm's scripts run generator/cli/<tool>.ts
// (through node-ts.mjs), the package runs bin/pepys-api.mjs or dist/generator/cli/<tool>.js.
const GENERATOR_COMMAND = /(?:^|[\s/\\])(?:generator[/\\]cli[/\\][a-z-]+\.(?:ts|js)|pepys-api(?:\.mjs)?)(?:\s|$)/;

/** Whether a command line is one of this generator's commands (a build, a server). */
export function isGeneratorCommand(commandLine: string): boolean {
  return GENERATOR_COMMAND.test(commandLine);
}
