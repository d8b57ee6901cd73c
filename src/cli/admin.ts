import { openState, type StateDb } from '../accounts/state-db.ts';
import { createOrganization, createUser, getOrganization, setTwoFactor, verifyUser } from '../accounts/organizations.ts';
import { createToken, parseAbilities, revokeToken } from '../accounts/tokens.ts';
import { balanceOf, grantCredits } from '../accounts/ledger.ts';
import { PLANS, type Plan } from '../accounts/plans.ts';
import { loadConfig } from '../config.ts';
import { UsageError, type Flags } from './flags.ts';

/** Administration commands: `org`, `user`, `token`, `credits`. Each prints one JSON object with --json, else prose. */
export function runAdmin(group: string, action: string | undefined, flags: Flags, statePath: string): unknown {
  const state = openState(statePath);
  try {
    return dispatch(state, `${group} ${action ?? ''}`.trim(), flags, new Date());
  } finally {
    state.close();
  }
}

function dispatch(state: StateDb, command: string, flags: Flags, now: Date): unknown {
  switch (command) {
    case 'org create': {
      const plan = (flags.plan ?? 'free') as Plan;
      if (!PLANS.includes(plan)) throw new UsageError(`--plan must be one of ${PLANS.join(', ')}`);
      return createOrganization(state, { name: required(flags, 'name'), plan, requireTwoFactor: flags['require-2fa'] === true }, now);
    }
    case 'user create':
      return { user: createUser(state, { organizationId: required(flags, 'org'), name: required(flags, 'name'), email: flags.email as string | undefined }, now) };
    case 'user verify':
      return { user: verifyUser(state, required(flags, 'user'), now) };
    case 'user enable-2fa':
      return { user: setTwoFactor(state, required(flags, 'user'), true) };
    case 'token create': {
      const days = flags.days === undefined ? undefined : wholeNumber(flags.days as string, 'days');
      const { token, record } = createToken(state, {
        organizationId: required(flags, 'org'),
        userId: flags.user as string | undefined,
        abilities: parseAbilities(required(flags, 'abilities')),
        days,
        name: flags.name as string | undefined,
      }, now);
      return { token, id: record.id, organization_id: record.organization_id, abilities: record.abilities, expires_at: record.expires_at };
    }
    case 'token revoke': {
      const id = required(flags, 'id');
      if (!revokeToken(state, id, now)) throw new UsageError(`no active token ${id}`);
      return { revoked: id };
    }
    case 'credits show':
      return { organization_id: required(flags, 'org'), ...balanceOf(state, organizationOrFail(state, flags), loadConfig().plans, now) };
    case 'credits grant': {
      const organization = organizationOrFail(state, flags);
      grantCredits(state, organization.id, wholeNumber(required(flags, 'amount'), 'amount'), (flags.note as string) ?? 'granted by an operator', now);
      return { organization_id: organization.id, ...balanceOf(state, organization, loadConfig().plans, now) };
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

function organizationOrFail(state: StateDb, flags: Flags) {
  const id = required(flags, 'org');
  const organization = getOrganization(state, id);
  if (!organization) throw new UsageError(`no organization ${id}`);
  return organization;
}

function required(flags: Flags, name: string): string {
  const value = flags[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

/** A flag holding a whole number written as digits (`1e308`, `0x10` and `2.0` are refused, not reinterpreted). */
function wholeNumber(value: string, name: string): number {
  if (!/^\d{1,15}$/u.test(value.trim())) throw new UsageError(`--${name} must be a whole number, not "${value}"`);
  return Number(value);
}
