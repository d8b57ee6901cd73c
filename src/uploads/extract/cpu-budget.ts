// The computing one document may cost, in CPU time of its extraction process. A small PDF can ask pdf.js for
// unbounded work in little memory: 40 KB of nested `q` operators (the graphics state saved 20,000 times) took 33 s of
// CPU, a million of them (2 MB, or 2 KB deflated) the whole 120 s time limit. pdf.js does that work without yielding
// its event loop, so the budget is held from outside it, by the watchdog thread (src/uploads/extract/watchdog.ts).
// It is CPU time, not time passed: a busy machine and the background priority of extraction stretch the clock, never
// what a document costs.

/** CPU time any document may take, whatever its size (covers loading pdf.js on a process's first document). */
export const CPU_BUDGET_BASE_MS = 5_000;
/** CPU time allowed per KiB of the file: ordinary PDFs cost 0.7 to 1.3 ms per KiB (docs/uploads.md). */
export const CPU_BUDGET_MS_PER_KIB = 2;

/**
 * The CPU time, in ms, a file of `bytes` may cost to extract.
 *
 * @example cpuBudgetMs(2_900_000) // 10_666: a 2.9 MB PDF gets about 11 s of CPU
 */
export function cpuBudgetMs(bytes: number): number {
  return CPU_BUDGET_BASE_MS + Math.ceil(bytes / 1024) * CPU_BUDGET_MS_PER_KIB;
}
