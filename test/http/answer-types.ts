/**
 * Checked by `tsc --noEmit` (no test runs it): what the functions building each answer return is assignable to the
 * output type of the answer schema the operation declares, so a field the schema requires that the builder no longer
 * returns, or returns with another type, fails the type check. The other direction (a field returned but not
 * declared) is test/http/answers.test.ts.
 */
import type * as v from 'valibot';
import type * as answers from '../../src/operations/answers.ts';
import type { CheckRun } from '../../src/citations/check.ts';
import type { UploadResource } from '../../src/uploads/resource.ts';
import type { citationGraph } from '../../src/graph/neighbours.ts';
import type { corpusCoverage } from '../../src/corpus/coverage.ts';
import type { listFacet } from '../../src/corpus/facets.ts';
import type { assembleDatapackage } from '../../src/graph/datapackage.ts';
import type { readDecision } from '../../src/corpus/read-decision.ts';
import type { searchDecisions } from '../../src/search/decision-search.ts';
import type { searchCombined } from '../../src/search/combined-search.ts';
import type { readLawUnit } from '../../src/corpus/read-law-unit.ts';
import type { decisionTextCitations } from '../../src/graph/text-citations.ts';

type Built<F extends (...args: any[]) => unknown> = Awaited<ReturnType<F>>;
/** `true` only where what is built fits the declared answer. */
type Fits<Result, S extends v.GenericSchema> = Result extends v.InferOutput<S> ? true : false;

export const answersFitWhatIsBuilt: [
  Fits<CheckRun, typeof answers.checkRunAnswer>,
  Fits<UploadResource, typeof answers.uploadAnswer>,
  Fits<Built<typeof citationGraph>, typeof answers.citationGraphAnswer>,
  Fits<Built<typeof corpusCoverage>, typeof answers.corpusCoverageAnswer>,
  Fits<Built<typeof listFacet>, typeof answers.facetsAnswer>,
  // The builder types its decisions as `object` only: the rest of the package is checked here, they by the test.
  Omit<Built<typeof assembleDatapackage>, 'decisions'> extends Omit<v.InferOutput<typeof answers.datapackageAnswer>, 'decisions'> ? true : false,
  Fits<Built<typeof readDecision>, typeof answers.decisionAnswer>,
  Fits<Built<typeof searchDecisions>, typeof answers.decisionSearchAnswer>,
  Fits<Built<typeof searchCombined>, typeof answers.combinedSearchAnswer>,
  Fits<Built<typeof readLawUnit>, typeof answers.lawUnitAnswer>,
  // The handler adds id, text_length and the Fortgeltung notice around what the builder returns.
  Built<typeof decisionTextCitations> extends Pick<v.InferOutput<typeof answers.decisionTextCitationsAnswer>, 'randnummern' | 'sections' | 'citations'> ? true : false,
] = [true, true, true, true, true, true, true, true, true, true, true];
