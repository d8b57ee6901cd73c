/** Argument schemas shared by several operations (contract wording in the messages). */
import * as v from 'valibot';
import { codePointLength } from '../text/code-points.ts';

export const BRANCHES = ['ordentlich', 'verwaltung', 'sozial', 'arbeit', 'finanz', 'verfassung', 'patent', 'unbekannt'] as const;
export const DOCUMENT_TYPES = ['Urteil', 'Beschluss', 'Verfügung', 'Sonstige', 'Gerichtsbescheid', 'Schlussanträge'] as const;
export const SEARCH_MODES = ['keyword', 'semantic', 'hybrid'] as const;

/** A calendar date `YYYY-MM-DD` that exists. */
export const isoDate = v.pipe(v.string(), v.isoDate('must be a date YYYY-MM-DD'),
  v.check((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return Number.isNaN(date.getTime()) || date.toISOString().startsWith(value);
  }, 'must be a date that exists'));

/** A whole number in [min, max]. */
export function int(min: number, max = Number.MAX_SAFE_INTEGER) {
  const range = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `from ${min} to ${max}`;
  return v.pipe(v.number('must be a whole number'), v.integer('must be a whole number'),
    v.minValue(min, `must be ${range}`), v.maxValue(max, max === Number.MAX_SAFE_INTEGER ? 'is too large' : `must be ${range}`));
}

/** A string of at most `max` characters with more than white space in it (identifiers, names); one message a value. */
export function text(max: number) {
  return v.config(v.pipe(v.string(), v.minLength(1, 'must not be empty'),
    v.check((value) => value.trim() !== '', 'must not be blank'), v.maxLength(max, `must be at most ${max} characters`)),
  { abortPipeEarly: true });
}

/** A decision named by UUID, ECLI or Aktenzeichen (with `court`/`date` to disambiguate). */
export const decisionRef = v.pipe(text(200), v.description('decision id (UUID), ECLI, or Aktenzeichen'));
export const courtFilter = v.pipe(text(200), v.description('court short form, e.g. BGH or OLG München'));

/** Search arguments shared by the decision search (10) and the combined search (11). */
export const searchFilters = {
  query: v.pipe(v.string(), v.trim(),
    v.check((query) => codePointLength(query) >= 2, 'must be 2 to 500 characters'),
    v.check((query) => codePointLength(query) <= 500, 'must be 2 to 500 characters; longer input is rejected, not truncated'),
    v.description('German legal-concept phrasing (2 to 500 characters, counted as Unicode code points)'),
    // The checks count code points, as JSON Schema's length keywords do: the tool and OpenAPI schemas state them.
    v.metadata({ minLength: 2, maxLength: 500 })),
  court: v.optional(courtFilter),
  branch: v.optional(v.picklist(BRANCHES, `must be one of ${BRANCHES.join(', ')}`)),
  document_type: v.optional(v.picklist(DOCUMENT_TYPES, `must be one of ${DOCUMENT_TYPES.join(', ')}`)),
  cited_norm: v.optional(v.pipe(text(200), v.description('one canonical §-token, e.g. § 573 BGB'))),
  date_from: v.optional(isoDate),
  date_to: v.optional(isoDate),
  mode: v.optional(v.picklist(SEARCH_MODES, `must be one of ${SEARCH_MODES.join(', ')}`)),
  bridge: v.optional(v.boolean('must be true or false'), true),
};

/** date_to not earlier than date_from (checked where both are given; reported on date_to). */
export const datesInOrder = (input: { date_from?: string; date_to?: string }) =>
  !input.date_from || !input.date_to || input.date_to >= input.date_from;
export const DATES_IN_ORDER = 'must not be earlier than date_from';
