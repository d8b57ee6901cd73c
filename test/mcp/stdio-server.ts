/**
 * `juralite mcp` as the CLI will run it (mcpCommand), on database files and a clock given by the test:
 * JURALITE_TEST_CORPUS, JURALITE_TEST_STATE, JURALITE_TEST_NOW (ISO date-time, optional) and JURALITE_TOKEN.
 */
import { mcpCommand } from '../../src/mcp/command.ts';

const now = process.env.JURALITE_TEST_NOW ? new Date(process.env.JURALITE_TEST_NOW) : undefined;
try {
  await mcpCommand({ corpusPath: process.env.JURALITE_TEST_CORPUS!, statePath: process.env.JURALITE_TEST_STATE! },
    { clock: now && (() => now) });
} catch (error) {
  console.error(`juralite: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
