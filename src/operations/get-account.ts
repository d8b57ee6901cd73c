import * as v from 'valibot';
import type { VolumeUnit } from '../accounts/limits.ts';
import { nextBerlinMidnight } from '../accounts/time.ts';
import { defineOperation } from './operation.ts';
import { accountAnswer } from './answers.ts';

/**
 * "Who am I": what a token acts for, so that a client (the pages at `/`, an MCP client) can say so without a second
 * channel. Free; needs `read`, the ability every token meant for a person carries (docs/web.md).
 */
export default defineOperation({
  name: 'get_account',
  summary: 'The token\'s organization, abilities, credits left and daily caps',
  description: 'What the calling token acts for: its organization and plan, its own abilities and expiry, the credits '
    + 'left this month (monthly allotment and starter or granted credits) and the daily caps with what is used today.',
  method: 'GET',
  path: '/account',
  ability: 'read',
  errors: [401, 403, 409, 422, 429],
  args: v.object({}),
  answer: accountAnswer,
  pricing: 'free',
  price: () => 0,
  handler: async (_args, { services, caller, now }) => {
    const { store, config } = services;
    const { organization, token, user } = caller;
    const terms = config.plans[organization.plan];
    const balance = await store.balanceOf(organization, config.plans, now);
    const used = { rows: await store.volumeUsed(organization.id, 'rows', now), documents: await store.volumeUsed(organization.id, 'documents', now) };
    const cap = (unit: VolumeUnit, limit: number) => ({ cap: limit, used: used[unit] });
    return {
      organization: { id: organization.id, name: organization.name, plan: organization.plan,
        require_two_factor: organization.require_two_factor },
      user: user ? { id: user.id, name: user.name, two_factor_enabled: user.two_factor_enabled } : null,
      token: { id: token.id, name: token.name, abilities: token.abilities, expires_at: token.expires_at },
      balance: { monthly: balance.monthly, bonus: balance.bonus, total: balance.total,
        monthly_allotment: terms.monthlyCredits },
      daily_caps: { rows: cap('rows', terms.dailyRows), documents: cap('documents', terms.dailyDocuments),
        resets_at: nextBerlinMidnight(now) },
    };
  },
});
