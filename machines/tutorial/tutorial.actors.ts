/**
 * The real side effect of the tutorial machine: GET /tutorial-setting through the edge's ApiPort
 * (src/api/client.ts validates the response with the contract's TutorialSettingSchema), parsed
 * once more here so a fake edge cannot hand the machine a malformed setting. An edge without the
 * call fails the load as GENERIC_ERROR (the tutorial then shows its error, and Continue still works).
 * `tutorialMachine.provide(tutorialImplementations({ api }))`.
 */
import * as v from 'valibot';
import { fromPromise } from 'xstate';
import { TutorialSettingSchema } from '../../contract/tutorial.ts';
import { ApiFailure } from '../shared/ports.ts';
import type { TutorialPort, TutorialSetting } from './tutorial.types.ts';

export function tutorialImplementations(deps: { api: TutorialPort }) {
  const { api } = deps;
  return {
    actors: {
      loadTutorialSetting: fromPromise(async ({ input }: { input: { scheduleHistoryId: number } }): Promise<TutorialSetting> => {
        if (!api.tutorialSetting) throw new ApiFailure('GENERIC_ERROR', undefined, 'This edge has no GET /tutorial-setting');
        const parsed = v.safeParse(TutorialSettingSchema, await api.tutorialSetting(input.scheduleHistoryId));
        if (!parsed.success) throw new ApiFailure('GENERIC_ERROR', undefined, 'Unexpected tutorial setting');
        return parsed.output;
      }),
    },
  };
}
