import pkg from '../package.json' with { type: 'json' };
import { DEFAULT_PLAN_TERMS, type Plan, type PlanTerms } from './accounts/plans.ts';

/** Every API path lives under this prefix: the major version is the contract. */
export const API_BASE = '/api/v1';

/** The release that serves an answer: `api_version` in bodies, `X-Service-Api-Release` in headers. */
export const RELEASE: string = pkg.version;

export interface Config {
  release: string;
  /** The address clients reach this service at (no trailing slash); `corpus_url` links are built from it. */
  publicUrl: string;
  /** Where the service's documentation lives; problem `type` URIs are `{docsUrl}/api/errors#<code>`. */
  docsUrl: string;
  changelogUrl: string;
  plans: Record<Plan, PlanTerms>;
}

/**
 * The configuration, from defaults and JURALITE_* environment variables.
 *
 * @example const config = loadConfig({ JURALITE_PUBLIC_URL: 'https://recht.kanzlei.example' });
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const publicUrl = (env.JURALITE_PUBLIC_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
  return {
    release: RELEASE,
    publicUrl,
    docsUrl: `${publicUrl}/docs`,
    changelogUrl: `${publicUrl}/docs/changelog`,
    plans: DEFAULT_PLAN_TERMS,
  };
}
