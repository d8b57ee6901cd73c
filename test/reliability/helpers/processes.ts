/** Processes seen through Linux's /proc, for tests of what a server's extraction processes do. */
import { readdirSync, readFileSync } from 'node:fs';

/** The fields of /proc/PID/stat after the command name: [0] the state letter, [1] the parent pid, [11, 12] CPU ticks. */
export function statOf(pid: number | string): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
  } catch {
    return null;
  }
}

/** Child processes of `pid` (the extraction workers of a server). */
export function childrenOf(pid: number): number[] {
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name) && statOf(name)?.[1] === String(pid)).map(Number);
}

/** Running: present and not a zombie (a reaper that never reaps leaves a dead orphan as Z). */
export function running(pid: number): boolean {
  const state = statOf(pid)?.[0];
  return state !== undefined && state !== 'Z';
}

/** CPU time (user + system, in clock ticks) a process has used; 0 once it is gone. */
export function cpuTicks(pid: number): number {
  const fields = statOf(pid);
  return fields ? Number(fields[11]) + Number(fields[12]) : 0;
}
