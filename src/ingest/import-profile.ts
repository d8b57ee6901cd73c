// Where an import's time goes, step by step (`juralite import --profile`, bench/import-at-size.ts). Off unless an
// import is given a profile: then the importer and the index drain time their steps through `timed`, which costs two
// clock reads per step when on and one test when off.

/** Milliseconds and calls of one step. */
export interface StepTotal { ms: number; calls: number }

/** A batch as the profile saw it: its documents and the milliseconds of each step while it was written. */
export interface BatchSteps { documents: number; ms: number; steps: Record<string, number> }

/** The steps of one import: totals per step, and each batch's share. */
export class ImportProfile {
  readonly totals = new Map<string, StepTotal>();
  readonly batches: BatchSteps[] = [];
  private batchStart = new Map<string, number>();
  private batchAt = 0;

  add(step: string, ms: number): void {
    const total = this.totals.get(step);
    if (total) {
      total.ms += ms;
      total.calls++;
    } else this.totals.set(step, { ms, calls: 1 });
  }

  /** Starts a batch: the steps' totals from here on are its own. */
  beginBatch(): void {
    this.batchStart = new Map([...this.totals].map(([step, total]) => [step, total.ms]));
    this.batchAt = performance.now();
  }

  /**
   * Ends the batch begun last, of `documents` documents. The batch's time not taken by a step named `decision: ...`
   * is added to `batch: commit` (BEGIN and COMMIT, and the WAL checkpoint a commit may run).
   */
  endBatch(documents: number): void {
    const ms = performance.now() - this.batchAt;
    const steps: Record<string, number> = {};
    for (const [step, total] of this.totals) {
      const spent = total.ms - (this.batchStart.get(step) ?? 0);
      if (spent > 0) steps[step] = spent;
    }
    const inDecisions = Object.entries(steps).reduce((sum, [step, spent]) => sum + (step.startsWith('decision: ') ? spent : 0), 0);
    steps['batch: commit'] = ms - inDecisions;
    this.add('batch: commit', ms - inDecisions);
    this.batches.push({ documents, ms, steps });
  }

  /** The steps, longest first, as rows of step, seconds, calls and share of `wallMs`. */
  rows(wallMs: number): [string, string, string, string][] {
    return [...this.totals].sort((a, b) => b[1].ms - a[1].ms).map(([step, total]) =>
      [step, (total.ms / 1000).toFixed(2), String(total.calls), `${((100 * total.ms) / wallMs).toFixed(1)}%`]);
  }
}

let active: ImportProfile | null = null;

/** Makes `profile` the one `timed` adds to (null: none) and returns the one it replaces. */
export function profileSteps(profile: ImportProfile | null): ImportProfile | null {
  const before = active;
  active = profile;
  return before;
}

/** Runs `fn`, adding its time to `step` of the import being profiled (if any). */
export function timed<T>(step: string, fn: () => T): T {
  if (!active) return fn();
  const profile = active;
  const at = performance.now();
  try {
    return fn();
  } finally {
    profile.add(step, performance.now() - at);
  }
}

/** timed for a promise: the time until it settles. */
export async function timedAsync<T>(step: string, promise: Promise<T>): Promise<T> {
  if (!active) return promise;
  const profile = active;
  const at = performance.now();
  try {
    return await promise;
  } finally {
    profile.add(step, performance.now() - at);
  }
}

/** The profile steps are being added to, if any. */
export function activeProfile(): ImportProfile | null {
  return active;
}
