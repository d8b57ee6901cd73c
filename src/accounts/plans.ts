/** Plans: monthly credit allotment and daily volume caps (contract, "Limits"; resolutions.md, "Credits"). */
export type Plan = 'free' | 'starter' | 'professional' | 'enterprise';
export const PLANS: readonly Plan[] = ['free', 'starter', 'professional', 'enterprise'];

export interface PlanTerms {
  monthlyCredits: number;
  /** Search result rows and graph neighbours served per Berlin day. */
  dailyRows: number;
  /** Decision texts served in full per Berlin day. */
  dailyDocuments: number;
}

export const DEFAULT_PLAN_TERMS: Record<Plan, PlanTerms> = {
  free: { monthlyCredits: 0, dailyRows: 1000, dailyDocuments: 40 },
  starter: { monthlyCredits: 500, dailyRows: 5000, dailyDocuments: 200 },
  professional: { monthlyCredits: 2500, dailyRows: 20000, dailyDocuments: 600 },
  enterprise: { monthlyCredits: 10000, dailyRows: 60000, dailyDocuments: 2000 },
};

/** Credits a newly verified user brings to the organization, once; they do not expire. */
export const STARTER_CREDITS = 30;
