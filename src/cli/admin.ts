import { dirname } from 'node:path';
import { openState, type StateDb } from '../accounts/state-db.ts';
import { createOrganization, createUser, getOrganization, listOrganizations, listUsers, setTwoFactor, verifyUser } from '../accounts/organizations.ts';
import { createToken, listTokens, parseAbilities, revokeToken, type Ability } from '../accounts/tokens.ts';
import { balanceOf, grantCredits } from '../accounts/ledger.ts';
import { PLANS, type Plan } from '../accounts/plans.ts';
import { loadConfig } from '../config.ts';
import { requireDatabaseOrNothing, requireDirectoryOf } from './files.ts';
import { isExecutableDataDir } from './paths.ts';
import { UsageError, type Flags } from './flags.ts';

/** What an administration command does once its arguments are checked: work on the open state database. */
type AdminWork = (state: StateDb, now: Date) => unknown;

/**
 * Administration commands: `org`, `user`, `token`, `credits`. Each prints one JSON object with --json, else prose.
 * The arguments are checked before the state database is opened. The state database may be made (the organization
 * comes before the first `serve`), but in an existing directory only, never in one a mistyped --data names; the
 * executable's own data directory is the exception.
 */
export function runAdmin(command: string, words: string[], flags: Flags, statePath: string): unknown {
  const work = adminWork(command, words, flags);
  if (!isExecutableDataDir(dirname(statePath))) requireDirectoryOf(statePath, 'state database');
  requireDatabaseOrNothing(statePath, 'a juralite state database');
  const state = openState(statePath);
  try {
    return work(state, new Date());
  } finally {
    state.close();
  }
}

function adminWork(command: string, words: string[], flags: Flags): AdminWork {
  switch (command) {
    case 'org create': {
      const input = { name: required(flags, 'name'), plan: planOf(flags), requireTwoFactor: flags['require-2fa'] === true };
      return (state, now) => createOrganization(state, input, now);
    }
    case 'org list':
      return (state) => ({ organizations: listOrganizations(state) });
    case 'user list': {
      const id = required(flags, 'org');
      return (state) => ({ organization_id: organizationOrFail(state, id).id, users: listUsers(state, id) });
    }
    case 'token list': {
      const id = optional(flags, 'org');
      return (state, now) => {
        if (id !== undefined) organizationOrFail(state, id);
        // Whether each still works, so that an operator need not compare dates.
        const tokens = listTokens(state, id).map((token) => ({
          ...token, active: token.revoked_at === null && token.expires_at > now.toISOString(),
        }));
        return { tokens };
      };
    }
    case 'user create': {
      const input = { organizationId: required(flags, 'org'), name: required(flags, 'name'), email: optional(flags, 'email') };
      return (state, now) => ({ user: createUser(state, input, now) });
    }
    case 'user verify': {
      const userId = required(flags, 'user');
      return (state, now) => ({ user: verifyUser(state, userId, now) });
    }
    case 'user enable-2fa': {
      const userId = required(flags, 'user');
      return (state) => ({ user: setTwoFactor(state, userId, true) });
    }
    case 'token create': {
      const input = {
        organizationId: required(flags, 'org'),
        userId: optional(flags, 'user'),
        abilities: abilitiesOf(required(flags, 'abilities')),
        days: flags.days === undefined ? undefined : wholeNumber(flags.days as string, 'days'),
        name: optional(flags, 'name'),
      };
      return (state, now) => {
        const { token, record } = createToken(state, input, now);
        return { token, id: record.id, organization_id: record.organization_id, abilities: record.abilities, expires_at: record.expires_at };
      };
    }
    case 'token revoke': {
      const id = tokenId(words, flags);
      return (state, now) => {
        if (!revokeToken(state, id, now)) throw new Error(`no active token ${id}`);
        return { revoked: id };
      };
    }
    case 'credits show': {
      const id = required(flags, 'org');
      return (state, now) => ({ organization_id: id, ...balanceOf(state, organizationOrFail(state, id), loadConfig().plans, now) });
    }
    case 'credits grant': {
      const id = required(flags, 'org');
      const amount = wholeNumber(required(flags, 'amount'), 'amount');
      const note = optional(flags, 'note') ?? 'granted by an operator';
      return (state, now) => {
        const organization = organizationOrFail(state, id);
        grantCredits(state, organization.id, amount, note, now);
        return { organization_id: organization.id, ...balanceOf(state, organization, loadConfig().plans, now) };
      };
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

function planOf(flags: Flags): Plan {
  const plan = optional(flags, 'plan') ?? 'free';
  if (!(PLANS as readonly string[]).includes(plan)) throw new UsageError(`--plan must be one of ${PLANS.join(', ')}`);
  return plan as Plan;
}

/** The abilities of --abilities; an unknown one is a usage error. */
function abilitiesOf(list: string): Ability[] {
  try {
    return parseAbilities(list);
  } catch (error) {
    throw new UsageError(`--abilities: ${(error as Error).message}`);
  }
}

/** The spec's `token revoke ID`; `--id ID` as well. */
function tokenId(words: string[], flags: Flags): string {
  const [word] = words;
  const flag = optional(flags, 'id');
  if (word !== undefined && flag !== undefined && word !== flag) throw new UsageError(`two token ids given: ${word} and --id ${flag}`);
  const id = word ?? flag;
  if (!id) throw new UsageError('token revoke needs the token\'s ID');
  return id;
}

function organizationOrFail(state: StateDb, id: string) {
  const organization = getOrganization(state, id);
  if (!organization) throw new Error(`no organization ${id}`);
  return organization;
}

function optional(flags: Flags, name: string): string | undefined {
  const value = flags[name];
  return typeof value === 'string' ? value : undefined;
}

function required(flags: Flags, name: string): string {
  const value = optional(flags, name);
  if (value === undefined || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

/** A flag holding a whole number written as digits (`1e308`, `0x10` and `2.0` are refused, not reinterpreted). */
function wholeNumber(value: string, name: string): number {
  if (!/^\d{1,15}$/u.test(value.trim())) throw new UsageError(`--${name} must be a whole number, not "${value}"`);
  return Number(value);
}
