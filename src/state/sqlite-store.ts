// The embedded state: one SQLite file, today's synchronous functions behind the asynchronous StateStore. Each method
// runs to its end before it returns its promise, so a transaction never spans an await and runs alone, as before.
import { inWriteTransaction, openState, type StateDb } from '../accounts/state-db.ts';
import { alreadyPaid, balanceOf, chargeInTransaction } from '../accounts/ledger.ts';
import { addVolume, assertVolumeLeft, usedToday } from '../accounts/limits.ts';
import { authenticate } from '../accounts/tokens.ts';
import { callerAndRoomOf } from '../accounts/caller-and-room.ts';
import { inTransaction } from '../db/statements.ts';
import { consumeUpload, readRun, readyUpload, saveRun } from '../checks/runs.ts';
import {
  expireDue, findUpload, insertWithinQuota, recordExtraction, waitingPaths, waitingUpload, waitingUploads,
} from '../uploads/store.ts';
import type { CallRecord, StateStore, StateWrite } from './store.ts';
import { startWalCheckpoints, type WalCheckpoints } from './wal-checkpoints.ts';

/** Charged calls before a server's checkpoint thread starts (a short-lived server or test never needs one). */
export const CHECKPOINT_THREAD_AFTER_COMMITS = 100;

/** Applies one of a call's writes inside the charging transaction. */
function applyWrite(db: StateDb, write: StateWrite, now: Date): void {
  switch (write.kind) {
    case 'save_run': return saveRun(db, write.organizationId, write.run);
    case 'consume_upload': return consumeUpload(db, write.id);
    case 'insert_upload': return insertWithinQuota(db, write.row, write.quota, now);
  }
}

/**
 * The StateStore of a SQLite state database (opened, or an open handle); `db` stays reachable for the tools that
 * work on the file itself (backup, the administration commands, tests).
 *
 * @example const store = new SqliteStore(openState('data/state.db'));
 */
export class SqliteStore implements StateStore {
  readonly kind = 'sqlite';
  readonly db: StateDb;
  /** The checkpoint thread: not wanted (the CLI, tools), wanted (a server; started after some commits), or running. */
  #checkpoints: 'off' | 'wanted' | WalCheckpoints | null = 'off';
  #commits = 0;

  constructor(db: StateDb | string) {
    this.db = typeof db === 'string' ? openState(db) : db;
  }

  get filePath(): string { return this.db.name; }

  /**
   * Checkpoints the write-ahead log in a thread of its own from the CHECKPOINT_THREAD_AFTER_COMMITS-th charged call
   * on, instead of inside every ~330th call's commit (src/state/wal-checkpoints.ts). `juralite serve` asks for it.
   */
  checkpointInThread(): void {
    if (this.#checkpoints === 'off') this.#checkpoints = 'wanted';
  }

  // Several reads each (token, organization and user; the month's and the bonus pool's sums): one read transaction.
  async authenticate(authorization: string | null | undefined, now: Date) {
    return inTransaction(this.db, () => authenticate(this.db, authorization, now));
  }
  // One statement (src/accounts/caller-and-room.ts): one snapshot without a transaction.
  async callerAndRoom(...[authorization, now, { terms, unit }]: Parameters<StateStore['callerAndRoom']>) {
    return callerAndRoomOf(this.db, authorization, now, terms, unit);
  }
  async alreadyPaid(organizationId: string, operation: string, resultKey: string, now: Date) {
    return alreadyPaid(this.db, organizationId, operation, resultKey, now);
  }
  async balanceOf(...args: Parameters<StateStore['balanceOf']>) { return inTransaction(this.db, () => balanceOf(this.db, ...args)); }
  async volumeUsed(...args: Parameters<StateStore['volumeUsed']>) { return usedToday(this.db, ...args); }

  async commitCall(call: CallRecord, now: Date) {
    const { db } = this;
    if (this.#checkpoints === 'wanted' && ++this.#commits >= CHECKPOINT_THREAD_AFTER_COMMITS) this.#checkpoints = startWalCheckpoints(db);
    return inWriteTransaction(db, () => {
      const outcome = chargeInTransaction(db, call.organization, call.terms, call.charge, now);
      if (!outcome.charged) return outcome;
      if (call.volume && call.volume.amount > 0) {
        // Again inside the transaction, for all this call served: calls that passed the check together, or one call
        // serving more than is left, must not carry the day past the cap.
        assertVolumeLeft(db, call.organization, call.terms, call.volume.unit, now, call.volume.amount);
        addVolume(db, call.organization.id, call.volume.unit, call.volume.amount, now);
      }
      for (const write of call.writes) applyWrite(db, write, now);
      return outcome;
    });
  }

  async readRun(organizationId: string, id: string) { return readRun(this.db, organizationId, id); }
  async readyUpload(organizationId: string, id: string, now: Date) { return readyUpload(this.db, organizationId, id, now); }
  async findUpload(organizationId: string, id: string) { return findUpload(this.db, organizationId, id); }
  async waitingUpload(id: string) { return waitingUpload(this.db, id); }
  async waitingUploads() { return waitingUploads(this.db); }
  async waitingPaths() { return waitingPaths(this.db); }
  async recordExtraction(...args: Parameters<StateStore['recordExtraction']>) { return recordExtraction(this.db, ...args); }
  expireDue(now: Date, id?: string) { return expireDue(this.db, now, id); }
  async close() {
    const checkpoints = this.#checkpoints;
    this.#checkpoints = 'off';
    // The server's connection first (synchronously, as before); the thread's connection, closed last, checkpoints.
    this.db.close();
    if (checkpoints && typeof checkpoints === 'object') await checkpoints.stop();
  }
}
