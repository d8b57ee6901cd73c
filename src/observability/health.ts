// Liveness and readiness for load balancers, systemd and Kubernetes (docs/operations.md): unauthenticated, free,
// never logged above debug, a few bytes.
import { accessSync, constants } from 'node:fs';
import { dirname } from 'node:path';
import { corpusAsOf } from '../corpus/coverage.ts';
import type { Services } from '../operations/operation.ts';
import { uploadsRunning } from '../uploads/service.ts';
import type { PostgresStore } from '../state/postgres-store.ts';

export interface Readiness {
  ready: boolean;
  /** Per check: `ok`, or what is wrong. */
  checks: { corpus: string; state: string; extraction: string };
}

/** Whether the service can answer calls: the corpus open and readable, state writable, the extraction pool running. */
export async function readiness(services: Services): Promise<Readiness> {
  const state = services.store.kind === 'postgres' ? await postgresCheck(services.store as PostgresStore) : stateCheck(services);
  const checks = { corpus: corpusCheck(services), state, extraction: extractionCheck(services) };
  return { ready: Object.values(checks).every((check) => check === 'ok'), checks };
}

function corpusCheck({ corpus }: Services): string {
  if (!corpus) return 'no corpus file is open';
  try {
    corpusAsOf(corpus);
    return 'ok';
  } catch (error) {
    return `the corpus cannot be read: ${(error as Error).message}`;
  }
}

/** A real write would queue behind a long transaction (busy_timeout 5 s); what makes writes fail is tested instead. */
function stateCheck({ state }: Services): string {
  try {
    if (state.pragma('query_only', { simple: true })) return 'the state database is read-only';
    // The journal files are written beside the file: both the file and its directory must take writes.
    accessSync(state.name, constants.R_OK | constants.W_OK);
    accessSync(dirname(state.name), constants.W_OK);
    return 'ok';
  } catch (error) {
    return `the state database cannot be written: ${(error as Error).message}`;
  }
}

/** A shared state answers a query (within the pool's connection timeout) and is not a read-only standby. */
async function postgresCheck(store: PostgresStore): Promise<string> {
  try {
    const { rows } = await store.query<{ read_only: string }>('SHOW transaction_read_only');
    return rows[0]?.read_only === 'on' ? 'the PostgreSQL state is read-only' : 'ok';
  } catch (error) {
    return `the PostgreSQL state cannot be reached: ${(error as Error).message}`;
  }
}

function extractionCheck(services: Services): string {
  return uploadsRunning(services) ? 'ok' : 'the extraction pool is not running';
}
