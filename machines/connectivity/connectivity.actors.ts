/**
 * The real checks of the connectivity machine over the edge's ConnectivityPort:
 * `connectivityMachine.provide(connectivityImplementations(port))`.
 *
 * Each check is one promise actor: it reads the time on this terminal's clock, asks the port for
 * facts with the actor's own AbortSignal (the machine stops the actor at its time-out, and the
 * edge stops the work with it), and judges the facts with connectivity.rules.ts. A port that
 * gets no answer is a verdict ("unreachable"); only a defect rejects.
 */
import { fromPromise } from 'xstate';
import {
  clockUnknown,
  judgeAnswer,
  judgeClock,
  judgeFonts,
  judgeOfflineShell,
  judgeStorage,
  notInBuild,
  serverTimeOf,
  unreachable,
  type FileKind,
} from './connectivity.rules.ts';
import type { CheckResult, CheckUrls, ConnectivityPort, HttpAnswer } from './connectivity.types.ts';

/** GET `url`; null when no answer came (the port rejected). */
async function answerOf(port: ConnectivityPort, url: string, signal: AbortSignal): Promise<HttpAnswer | null> {
  try {
    return await port.get(url, signal);
  } catch {
    return null;
  }
}

/** A host or file check: GET the URL this build names for it, timed. */
function fileCheck(port: ConnectivityPort, kind: FileKind, urlOf: (urls: CheckUrls) => string | null) {
  return fromPromise<CheckResult>(async ({ signal }) => {
    const started = port.now();
    const url = urlOf(port.urls());
    if (url === null) return notInBuild(port.now() - started);
    const answer = await answerOf(port, url, signal);
    const ms = port.now() - started;
    return answer ? judgeAnswer(kind, answer, ms, url) : unreachable(ms, url);
  });
}

export function connectivityImplementations(port: ConnectivityPort) {
  return {
    actors: {
      checkApi: fileCheck(port, 'api', (urls) => urls.apiHealth),
      checkFront: fileCheck(port, 'front', (urls) => urls.front),
      checkMathScript: fileCheck(port, 'mathScript', (urls) => urls.mathScript),
      checkMathStyle: fileCheck(port, 'mathStyle', (urls) => urls.mathStyle),
      checkClock: fromPromise<CheckResult>(async ({ signal }) => {
        const sentAt = port.now();
        const answer = await answerOf(port, port.urls().apiHealth, signal);
        const receivedAt = port.now();
        const serverTime = answer ? serverTimeOf(answer) : null;
        return serverTime ? judgeClock(serverTime, sentAt, receivedAt) : clockUnknown(receivedAt - sentAt);
      }),
      checkStorage: fromPromise<CheckResult>(async ({ signal }) => {
        const started = port.now();
        const facts = await port.storage(signal);
        return judgeStorage(facts, port.now() - started);
      }),
      checkOfflineShell: fromPromise<CheckResult>(async ({ signal }) => {
        const started = port.now();
        const facts = await port.offlineShell(signal);
        return judgeOfflineShell(facts, port.now() - started);
      }),
      checkFonts: fromPromise<CheckResult>(async ({ signal }) => {
        const started = port.now();
        const facts = await port.fonts(signal);
        return judgeFonts(facts, port.now() - started);
      }),
    },
  };
}
