/**
 * One part of a machine's connect as its screen's props. The connects and the screens name
 * things the same way: a value by its own name (`status`, `error`, `rows`), an event the screen
 * may send by the connect's verb with `on` in front (`retry` is `onRetry`, `takeTest` is
 * `onTakeTest`). So a connected screen reads `<TestingMenuScreen {...screenProps(api)} />`, and
 * the compiler still checks every prop the screen needs against the connect: a renamed verb or a
 * missing value is a type error, not a silent gap. Where a screen names an event otherwise (the
 * form's "Change" is `onBack`, the connect's `edit`), its connected file says so next to it.
 */

type Handler = (...args: never[]) => unknown;

/** The connect's part with each event renamed `on…`, each value as it is. */
export type ScreenProps<Api> = {
  [K in keyof Api & string as Api[K] extends Handler ? `on${Capitalize<K>}` : K]: Api[K];
};

/** `retry` -> `onRetry`, worked out once per name (a screen's props are made on every render). */
const eventNames = new Map<string, string>();
function eventName(key: string): string {
  let name = eventNames.get(key);
  if (name === undefined) {
    name = `on${key.charAt(0).toUpperCase()}${key.slice(1)}`;
    eventNames.set(key, name);
  }
  return name;
}

export function screenProps<Api extends object>(api: Api): ScreenProps<Api> {
  const props: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(api)) props[typeof value === 'function' ? eventName(key) : key] = value;
  return props as ScreenProps<Api>;
}
