/**
 * `memoizeByKey(make)` is `make` made once per key: the first call with a key makes the value,
 * every later call with the same key returns that same value, kept for as long as the key lives
 * (a WeakMap, so a stopped actor's `send` or an old answers record takes its value with it).
 *
 * The connects use it for what they hand the screens (the handlers of one `send`, the view of one
 * answers record): the same key gives the same function or object on every snapshot, so React's
 * memoised components and effects see equal props and do not render or run again for nothing.
 */
export function memoizeByKey<K extends object, V>(make: (key: K) => V): (key: K) => V {
  const made = new WeakMap<K, V>();
  return (key) => {
    if (made.has(key)) return made.get(key) as V;
    const value = make(key);
    made.set(key, value);
    return value;
  };
}
