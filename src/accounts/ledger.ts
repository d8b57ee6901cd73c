import type { StateDb } from './state-db.ts';
import { sql } from '../db/statements.ts';
import type { Organization } from './organizations.ts';
import type { PlanTerms, Plan } from './plans.ts';
import { utcMonth } from './time.ts';

export interface Balance {
  /** What is left of this month's allotment. */
  monthly: number;
  /** Starter and granted credits: they do not expire and are spent after the monthly allotment. */
  bonus: number;
  total: number;
}

/**
 * Writes this month's allotment row on the first charge of the month (the renewal at the start of each UTC month).
 * Call inside a write transaction.
 */
function ensureAllotment(db: StateDb, organization: Organization, terms: Record<Plan, PlanTerms>, now: Date): void {
  sql(db, `INSERT INTO ledger (organization_id, at, month, kind, monthly_delta, note)
           VALUES (?, ?, ?, 'allotment', ?, ?)
           ON CONFLICT (organization_id, month) WHERE kind = 'allotment' DO NOTHING`)
    .run(organization.id, now.toISOString(), utcMonth(now), terms[organization.plan].monthlyCredits,
      `monthly allotment, plan ${organization.plan}`);
}

export interface LedgerSums { monthly: number; allotted: number; bonus: number }

/** The running sums (ledger_sums) of the organization's monthly pool this month and of its bonus pool. */
function ledgerSums(db: StateDb, organizationId: string, now: Date): LedgerSums {
  const sums = sql<[string, string], LedgerSums>(db,
    'SELECT monthly, allotted, bonus FROM ledger_sums WHERE organization_id = ? AND month = ?');
  const { monthly, allotted } = sums.get(organizationId, utcMonth(now)) ?? { monthly: 0, allotted: 0 };
  return { monthly, allotted, bonus: sums.get(organizationId, '')?.bonus ?? 0 };
}

/** A month whose allotment row is not written yet (no charge so far) counts the plan's allotment all the same. */
export function balanceFrom(sums: LedgerSums, organization: Organization, terms: Record<Plan, PlanTerms>): Balance {
  const monthlyLeft = sums.monthly + (sums.allotted ? 0 : terms[organization.plan].monthlyCredits);
  return { monthly: monthlyLeft, bonus: sums.bonus, total: monthlyLeft + sums.bonus };
}

/** The organization's balance now, from the ledger's running sums. Read-only. */
export function balanceOf(db: StateDb, organization: Organization, terms: Record<Plan, PlanTerms>, now: Date): Balance {
  return balanceFrom(ledgerSums(db, organization.id, now), organization, terms);
}

/** Whether the organization already paid for this result in the current UTC month. */
export function alreadyPaid(db: StateDb, organizationId: string, operation: string, resultKey: string, now: Date): boolean {
  return sql(db, 'SELECT 1 FROM paid_results WHERE organization_id = ? AND month = ? AND operation = ? AND result_key = ?')
    .get(organizationId, utcMonth(now), operation, resultKey) !== undefined;
}

export type ChargeOutcome =
  | { charged: true; cost: number; balance: Balance }
  | { charged: false; cost: number; balance: Balance };

/**
 * Charges `cost` for a result, taking from the monthly pool first, and records the paid result, all inside the
 * caller's write transaction. A result already paid this month costs 0. Refuses (charged: false) when the balance is
 * below the cost; nothing is written then.
 */
export function chargeInTransaction(
  db: StateDb,
  organization: Organization,
  terms: Record<Plan, PlanTerms>,
  charge: { operation: string; resultKey: string; cost: number },
  now: Date,
): ChargeOutcome {
  const month = utcMonth(now);
  const sums = ledgerSums(db, organization.id, now);
  const before = balanceFrom(sums, organization, terms);
  const free = charge.cost === 0 || alreadyPaid(db, organization.id, charge.operation, charge.resultKey, now);
  if (free) return { charged: true, cost: 0, balance: before };
  if (before.total < charge.cost) return { charged: false, cost: charge.cost, balance: before };
  if (!sums.allotted) ensureAllotment(db, organization, terms, now);
  const { fromMonthly, fromBonus } = splitCharge(before, charge.cost);
  const { lastInsertRowid } = sql(db, 
    `INSERT INTO ledger (organization_id, at, month, kind, monthly_delta, bonus_delta, operation, result_key)
     VALUES (?, ?, ?, 'charge', ?, ?, ?, ?)`,
  ).run(organization.id, now.toISOString(), month, -fromMonthly, -fromBonus, charge.operation, charge.resultKey);
  sql(db, 'INSERT INTO paid_results (organization_id, month, operation, result_key, ledger_id) VALUES (?, ?, ?, ?, ?)')
    .run(organization.id, month, charge.operation, charge.resultKey, lastInsertRowid);
  return chargedOutcome(before, charge.cost);
}

/** How a charge divides between the pools: the monthly allotment first, then bonus credits. */
export function splitCharge(before: Balance, cost: number): { fromMonthly: number; fromBonus: number } {
  const fromMonthly = Math.min(cost, Math.max(before.monthly, 0));
  return { fromMonthly, fromBonus: cost - fromMonthly };
}

/** The outcome of a charge of `cost` taken from the balance `before`. */
export function chargedOutcome(before: Balance, cost: number): ChargeOutcome {
  const { fromMonthly, fromBonus } = splitCharge(before, cost);
  return {
    charged: true,
    cost,
    balance: { monthly: before.monthly - fromMonthly, bonus: before.bonus - fromBonus, total: before.total - cost },
  };
}

/** The largest single grant: far above any plan, far below where integers stop being exact. */
export const MAX_GRANT = 1_000_000_000;

/** The statement of a grant, shared by both state engines; parameters: `grantRow(...)`. */
export const GRANT_INSERT = `INSERT INTO ledger (organization_id, at, month, kind, bonus_delta, note) VALUES (?, ?, ?, 'grant', ?, ?)`;

/** The ledger row's parameters of a grant; throws unless the amount is a positive whole number up to MAX_GRANT. */
export function grantRow(organizationId: string, amount: number, note: string, now: Date): unknown[] {
  if (!Number.isSafeInteger(amount) || amount <= 0 || amount > MAX_GRANT) {
    throw new Error(`A grant is a positive whole number up to ${MAX_GRANT}, not ${amount}.`);
  }
  return [organizationId, now.toISOString(), utcMonth(now), amount, note];
}

/** Adds bonus credits (an operator's grant); they do not expire. */
export function grantCredits(db: StateDb, organizationId: string, amount: number, note: string, now: Date): void {
  sql(db, GRANT_INSERT).run(...grantRow(organizationId, amount, note, now));
}
