/**
 * The path table of the app, read from the machines' own definitions: each screen state has
 * `meta.path`; states marked `route: {}` may be entered by URL (XState routable states).
 */
import type { AnyStateMachine, AnyStateNode } from 'xstate';

export interface RouteTable {
  /** Path -> id of the routable state node that shows it. */
  routable: Map<string, string>;
  /** Every path any state shows. */
  paths: Set<string>;
}

function walk(node: AnyStateNode, table: RouteTable): void {
  const path = (node.meta as { path?: string } | undefined)?.path;
  if (path) {
    table.paths.add(path);
    if (node.config.route && !table.routable.has(path)) table.routable.set(path, node.id);
  }
  for (const child of Object.values(node.states)) walk(child as AnyStateNode, table);
}

export function routeTableOf(machine: AnyStateMachine): RouteTable {
  const table: RouteTable = { routable: new Map(), paths: new Set() };
  walk(machine.root, table);
  return table;
}

/** A path pattern with `$id` (a number): `/score-report/$id` matches `/score-report/42`. */
export function matchesPath(pattern: string, path: string): boolean {
  if (!pattern.includes('$id')) return pattern === path;
  const [before, after] = pattern.split('$id') as [string, string];
  if (!path.startsWith(before) || !path.endsWith(after)) return false;
  return /^[1-9][0-9]{0,9}$/.test(path.slice(before.length, path.length - after.length));
}

/** The path the snapshot shows: the deepest active state's `meta.path`, if any. */
export function pathOf(snapshot: { getMeta(): Record<string, unknown> }): string | undefined {
  let path: string | undefined;
  for (const meta of Object.values(snapshot.getMeta())) {
    const candidate = (meta as { path?: string } | undefined)?.path;
    if (candidate) path = candidate;
  }
  return path;
}

/** The screen the snapshot shows: the deepest active state's `meta.screen`, if any. */
export function screenOf(snapshot: { getMeta(): Record<string, unknown> }): string | undefined {
  let screen: string | undefined;
  for (const meta of Object.values(snapshot.getMeta())) {
    const candidate = (meta as { screen?: string } | undefined)?.screen;
    if (candidate) screen = candidate;
  }
  return screen;
}
