import { dirname } from 'node:path';
import { parseAbilities, type Ability } from '../accounts/tokens.ts';
import { PLANS, type Plan } from '../accounts/plans.ts';
import { loadConfig } from '../config.ts';
import { stateAdmin, type StateAdmin } from '../state/admin.ts';
import { isPostgresUrl } from '../state/location.ts';
import { openStateStore } from '../state/open.ts';
import type { StateStore } from '../state/store.ts';
import { requireDatabaseOrNothing, requireDirectoryOf } from './files.ts';
import { isExecutableDataDir } from './paths.ts';
import { UsageError, type Flags } from './flags.ts';

/** What an administration command does once its arguments are checked: work on the open state. */
type AdminWork = (state: { admin: StateAdmin; store: StateStore }, now: Date) => Promise<unknown>;

/**
 * Administration commands: `org`, `user`, `token`, `credits`. Each prints one JSON object with --json, else prose.
 * The arguments are checked before the state is opened. On SQLite the state database may be made (the organization
 * comes before the first `serve`), but in an existing directory only, never in one a mistyped --data names; the
 * executable's own data directory is the exception. On PostgreSQL (`--state postgres://...`) the schema is created
 * or migrated as `serve` does it, and the commands work with the same rules.
 */
export async function runAdmin(command: string, words: string[], flags: Flags, stateLocation: string): Promise<unknown> {
  const work = adminWork(command, words, flags);
  if (!isPostgresUrl(stateLocation)) {
    if (!isExecutableDataDir(dirname(stateLocation))) requireDirectoryOf(stateLocation, 'state database');
    requireDatabaseOrNothing(stateLocation, 'a juralite state database');
  }
  const { store } = await openStateStore(stateLocation);
  try {
    return await work({ admin: stateAdmin(store), store }, new Date());
  } finally {
    await store.close();
  }
}

function adminWork(command: string, words: string[], flags: Flags): AdminWork {
  switch (command) {
    case 'org create': {
      const input = { name: required(flags, 'name'), plan: planOf(flags), requireTwoFactor: flags['require-2fa'] === true };
      return ({ admin }, now) => admin.createOrganization(input, now);
    }
    case 'org list':
      return async ({ admin }) => ({ organizations: await admin.listOrganizations() });
    case 'user list': {
      const id = required(flags, 'org');
      return async ({ admin }) => ({ organization_id: (await organizationOrFail(admin, id)).id, users: await admin.listUsers(id) });
    }
    case 'token list': {
      const id = optional(flags, 'org');
      return async ({ admin }, now) => {
        if (id !== undefined) await organizationOrFail(admin, id);
        // Whether each still works, so that an operator need not compare dates.
        const tokens = (await admin.listTokens(id)).map((token) => ({
          ...token, active: token.revoked_at === null && token.expires_at > now.toISOString(),
        }));
        return { tokens };
      };
    }
    case 'user create': {
      const input = { organizationId: required(flags, 'org'), name: required(flags, 'name'), email: optional(flags, 'email') };
      return async ({ admin }, now) => ({ user: await admin.createUser(input, now) });
    }
    case 'user verify': {
      const userId = required(flags, 'user');
      return async ({ admin }, now) => ({ user: await admin.verifyUser(userId, now) });
    }
    case 'user enable-2fa': {
      const userId = required(flags, 'user');
      return async ({ admin }) => ({ user: await admin.setTwoFactor(userId, true) });
    }
    case 'token create': {
      const input = {
        organizationId: required(flags, 'org'),
        userId: optional(flags, 'user'),
        abilities: abilitiesOf(required(flags, 'abilities')),
        days: flags.days === undefined ? undefined : wholeNumber(flags.days as string, 'days'),
        name: optional(flags, 'name'),
      };
      return async ({ admin }, now) => {
        const { token, record } = await admin.createToken(input, now);
        return { token, id: record.id, organization_id: record.organization_id, abilities: record.abilities, expires_at: record.expires_at };
      };
    }
    case 'token revoke': {
      const id = tokenId(words, flags);
      return async ({ admin }, now) => {
        if (!await admin.revokeToken(id, now)) throw new Error(`no active token ${id}`);
        return { revoked: id };
      };
    }
    case 'credits show': {
      const id = required(flags, 'org');
      return async ({ admin, store }, now) => ({
        organization_id: id, ...await store.balanceOf(await organizationOrFail(admin, id), loadConfig().plans, now),
      });
    }
    case 'credits grant': {
      const id = required(flags, 'org');
      const amount = wholeNumber(required(flags, 'amount'), 'amount');
      const note = optional(flags, 'note') ?? 'granted by an operator';
      return async ({ admin, store }, now) => {
        const organization = await organizationOrFail(admin, id);
        await admin.grantCredits(organization.id, amount, note, now);
        return { organization_id: organization.id, ...await store.balanceOf(organization, loadConfig().plans, now) };
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

async function organizationOrFail(admin: StateAdmin, id: string) {
  const organization = await admin.getOrganization(id);
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
