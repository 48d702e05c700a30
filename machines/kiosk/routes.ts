/**
 * The path table of the app, read from the machines' own definitions: each screen state has
 * `meta.path`; states marked `route: {}` may be entered by URL (XState routable states). A state
 * with `meta.screensOf` hands its screens to the child it invokes under that id (the session's
 * `results`): the child's states carry their own paths, and the screen shown is the child's.
 */
import type { AnyActorRef, AnyStateMachine, AnyStateNode } from 'xstate';

export interface RouteTable {
  /** Path -> id of the routable state node that shows it. */
  routable: Map<string, string>;
  /** Every path any state shows. */
  paths: Set<string>;
}

/** The machine a state invokes under `id`, if it is one (its logic as the machine provides it). */
function invokedMachine(node: AnyStateNode, id: string): AnyStateMachine | undefined {
  const src = node.invoke.find((invoke) => invoke.id === id)?.src;
  const logic = typeof src === 'string' ? (node.machine.implementations.actors as Record<string, unknown>)[src] : src;
  return logic && typeof logic === 'object' && 'root' in logic ? (logic as AnyStateMachine) : undefined;
}

function walk(node: AnyStateNode, table: RouteTable, routable: boolean): void {
  const meta = node.meta as { path?: string; screensOf?: string } | undefined;
  if (meta?.path) {
    table.paths.add(meta.path);
    if (routable && node.config.route && !table.routable.has(meta.path)) table.routable.set(meta.path, node.id);
  }
  // The child's paths belong to the app; a URL is routed to this machine only (the child has no routable state of its own).
  const child = meta?.screensOf ? invokedMachine(node, meta.screensOf) : undefined;
  if (child) walk(child.root, table, false);
  for (const state of Object.values(node.states)) walk(state as AnyStateNode, table, routable);
}

export function routeTableOf(machine: AnyStateMachine): RouteTable {
  const table: RouteTable = { routable: new Map(), paths: new Set() };
  walk(machine.root, table, true);
  return table;
}

/** A path pattern with `$id` (a number): `/score-report/$id` matches `/score-report/42`. */
export function matchesPath(pattern: string, path: string): boolean {
  if (!pattern.includes('$id')) return pattern === path;
  const [before, after] = pattern.split('$id') as [string, string];
  if (!path.startsWith(before) || !path.endsWith(after)) return false;
  return /^[1-9][0-9]{0,9}$/.test(path.slice(before.length, path.length - after.length));
}

/**
 * The actor whose states show the screen: `actor` itself, or (its deepest active state has
 * `meta.screensOf`) the child it hands its screens to, followed down while that child runs.
 */
export function screenActorOf(actor: AnyActorRef): AnyActorRef {
  let shown = actor;
  for (;;) {
    const snapshot = shown.getSnapshot() as { getMeta?(): Record<string, unknown>; children?: Record<string, AnyActorRef | undefined> };
    let id: string | undefined;
    for (const meta of Object.values(snapshot.getMeta?.() ?? {})) id = (meta as { screensOf?: string } | undefined)?.screensOf ?? id;
    const child = id ? snapshot.children?.[id] : undefined;
    if (!child) return shown;
    shown = child;
  }
}

type WithMeta = { getMeta(): Record<string, unknown> };

/** The deepest active state's `meta[key]`, if any (a deeper state's overrides its parent's). */
function deepestMeta(snapshot: WithMeta, key: 'path' | 'screen'): string | undefined {
  let found: string | undefined;
  for (const meta of Object.values(snapshot.getMeta())) {
    const candidate = (meta as Partial<Record<typeof key, string>> | undefined)?.[key];
    if (candidate) found = candidate;
  }
  return found;
}

/** The path the snapshot shows: the deepest active state's `meta.path`, if any. */
export function pathOf(snapshot: WithMeta): string | undefined {
  return deepestMeta(snapshot, 'path');
}

/** The screen the snapshot shows: the deepest active state's `meta.screen`, if any. */
export function screenOf(snapshot: WithMeta): string | undefined {
  return deepestMeta(snapshot, 'screen');
}
