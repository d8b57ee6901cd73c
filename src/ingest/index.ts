// Public surface of the importers.
export { importPaths, type ImportOptions, type ImportProgress, type ImportSummary } from './import-paths.ts';
export { parseRiiXml } from './rii.ts';
export { parseGiiXml } from './gii.ts';
export { parseOldpCase } from './oldp.ts';
export { writeDecision } from './store-decision.ts';
export type { DecisionRecord } from './decision-record.ts';
