/**
 * The document machine's real calls: the score report over the API port with the URL's token,
 * the interface language of the page, and the login slips with the print's slips token.
 */
import { fromPromise } from 'xstate';
import type { LoginSlipsResponse } from '../../contract/exports.ts';
import type { ScoreReport } from '../../contract/results.ts';
import { ApiFailure } from '../shared/ports.ts';
import type { DocumentDeps } from './document.types.ts';

export function documentImplementations(deps: DocumentDeps) {
  return {
    actors: {
      applyLocale: fromPromise<void, { locale: string | null }>(async ({ input }) => {
        if (input.locale && deps.language) await deps.language.change(input.locale);
      }),
      loadScoreReport: fromPromise<ScoreReport, { scheduleHistoryId: number; token: string | null }>(async ({ input }) => {
        if (!deps.api.scoreReport) throw new ApiFailure('GENERIC_ERROR', undefined, 'This client cannot load score reports.');
        return deps.api.scoreReport(input.scheduleHistoryId, input.token ?? undefined);
      }),
      loadLoginSlips: fromPromise<LoginSlipsResponse, { scheduleCode: string; venueId: number | null; token: string }>(async ({ input }) => {
        if (!deps.api.loginSlips) throw new ApiFailure('GENERIC_ERROR', undefined, 'This client cannot load login slips.');
        return deps.api.loginSlips(input.scheduleCode, input.venueId, input.token);
      }),
    },
  };
}
