/**
 * The whole API surface in one list: every operation, declared once in its own file. REST routes, the OpenAPI
 * document, the MCP tools and the CLI are all generated from this list (numbers as in the contract).
 */
import type { Operation } from './operation.ts';
import checkCitations from './check-citations.ts';
import getCitationCheck from './get-citation-check.ts';
import uploadCitationDocument from './upload-citation-document.ts';
import getCitationDocument from './get-citation-document.ts';
import getCitationGraph from './get-citation-graph.ts';
import getCorpusCoverage from './get-corpus-coverage.ts';
import listFacets from './list-facets.ts';
import createDatapackage from './create-datapackage.ts';
import getDecision from './get-decision.ts';
import searchDecisions from './search-decisions.ts';
import search from './search.ts';
import getAccount from './get-account.ts';
import getLawUnit from './get-law-unit.ts';
import getDecisionTextCitations from './get-decision-text-citations.ts';

export const OPERATIONS: readonly Operation[] = [
  checkCitations, // 1
  getCitationCheck, // 2
  uploadCitationDocument, // 3
  getCitationDocument, // 4
  getCitationGraph, // 5
  getCorpusCoverage, // 6
  listFacets, // 7
  createDatapackage, // 8
  getDecision, // 9
  searchDecisions, // 10
  search, // 11
  getAccount, // beyond the contract's eleven (v1 grows): who a token acts for
  getLawUnit, // a § or article by law and number
  getDecisionTextCitations, // a decision's citations with their offsets
];
