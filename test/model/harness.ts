/**
 * Model-based testing of the production machines (ARCHITECTURE.md, "Model-based tests walk every
 * transition").
 *
 * `createTestModel` refuses machines with `invoke` and `after`, so the logic level walks the
 * production machine with xstate/graph's `getShortestPaths` directly: async outcomes
 * (`xstate.done.actor.*`, `xstate.error.actor.*`) and timers (`xstate.after.*`) are explicit
 * events of the path. The state key always records the event that led to it, so every edge
 * (including self-transitions) gets its own shortest path.
 *
 * Each path is then replayed on a real actor (fake actors that never settle, a SimulatedClock
 * so no timer fires by itself) while inspection records every transition actually taken.
 * Coverage is measured against the list of every transition in the machine's definition:
 * each guarded branch of each event, `always`, `after`, done and error edges, and the
 * routable-state (`xstate.route`) edges.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  SimulatedClock,
  createActor,
  type AnyActorLogic,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  type AnyTransitionDefinition,
  type InspectionEvent,
} from 'xstate';
import { getShortestPaths } from 'xstate/graph';

/** A stable name for one transition of a machine's definition. */
export function transitionId(t: AnyTransitionDefinition): string {
  const source = t.source as AnyStateNode;
  const always = source.always ?? [];
  const alwaysIndex = always.indexOf(t);
  if (alwaysIndex >= 0) return `${source.id} always[${alwaysIndex}]`;
  const list = source.transitions.get(t.eventType) ?? [];
  const index = list.indexOf(t);
  return `${source.id} on ${t.eventType}[${index}]`;
}

/** Every transition of the machine's definition, by id. */
export function allTransitions(machine: AnyStateMachine): Set<string> {
  const ids = new Set<string>();
  const visit = (node: AnyStateNode) => {
    for (const list of node.transitions.values()) for (const t of list) ids.add(transitionId(t));
    for (const t of node.always ?? []) ids.add(transitionId(t));
    for (const child of Object.values(node.states)) visit(child as AnyStateNode);
  };
  visit(machine.root);
  return ids;
}

/** Event types the active state nodes have transitions for (what can happen next). */
export function enabledEventTypes(snapshot: AnyMachineSnapshot): string[] {
  const types = new Set<string>();
  for (const node of snapshot._nodes as AnyStateNode[]) {
    for (const type of node.transitions.keys()) types.add(type);
  }
  return [...types];
}

export interface ModelSpec<TMachine extends AnyStateMachine> {
  /** Name printed in the coverage line. */
  name: string;
  /** The production machine with fake actors and recording actions provided. */
  machine: TMachine;
  /** Inputs to start from; paths are generated from each. */
  inputs: unknown[];
  /**
   * Sample events per event type; an event type without samples is sent as `{ type }`.
   * Done and error events of invoked actors must have samples (their payload matters).
   */
  samples: Record<string, AnyEventObject[] | ((snapshot: AnyMachineSnapshot) => AnyEventObject[])>;
  /** The part of the context that guards read, so states differing in it are told apart. */
  contextKey?: (context: Record<string, unknown>) => unknown;
  /** Checks that must hold in every state a path reaches (the machine's invariants). */
  invariants?: (snapshot: AnyMachineSnapshot) => void;
  /** Bound on the traversal. */
  limit?: number;
}

export interface ModelPath {
  description: string;
  events: AnyEventObject[];
  expected: AnyMachineSnapshot;
}

function stateKey(spec: ModelSpec<AnyStateMachine>, snapshot: AnyMachineSnapshot): string {
  return JSON.stringify([snapshot.value, snapshot.status, spec.contextKey?.(snapshot.context) ?? null]);
}

function eventsFor(spec: ModelSpec<AnyStateMachine>, snapshot: AnyMachineSnapshot): AnyEventObject[] {
  if (snapshot.status !== 'active') return [];
  return enabledEventTypes(snapshot).flatMap((type) => {
    const sample = spec.samples[type];
    if (typeof sample === 'function') return sample(snapshot);
    if (sample) return sample;
    if (type.startsWith('xstate.done.actor.') || type.startsWith('xstate.error.actor.')) {
      throw new Error(`${spec.name}: no sample for ${type}`);
    }
    if (type === 'xstate.route') throw new Error(`${spec.name}: no sample for xstate.route`);
    return [{ type }];
  });
}

function describeEvent(event: AnyEventObject): string {
  const { type, ...rest } = event;
  const detail = Object.keys(rest).length ? ` ${JSON.stringify(rest, (_, v) => (v instanceof Error ? `${v.name}(${(v as { code?: string }).code ?? v.message})` : v))}` : '';
  return `${type}${detail}`;
}

/** Shortest paths to every edge of the machine's reachable graph. */
export function modelPaths<TMachine extends AnyStateMachine>(spec: ModelSpec<TMachine>, input: unknown): ModelPath[] {
  const generic = spec as unknown as ModelSpec<AnyStateMachine>;
  const paths = getShortestPaths(spec.machine as AnyActorLogic, {
    input,
    events: (snapshot: AnyMachineSnapshot) => eventsFor(generic, snapshot),
    // The event that led here is part of the key: every edge is its own target.
    serializeState: (snapshot: AnyMachineSnapshot, event: AnyEventObject | undefined, prev: AnyMachineSnapshot | undefined) =>
      `${prev ? stateKey(generic, prev) : ''}|${event ? describeEvent(event) : ''}|${stateKey(generic, snapshot)}`,
    serializeEvent: (event: AnyEventObject) => describeEvent(event),
    limit: spec.limit ?? 50_000,
  } as never) as unknown as Array<{ state: AnyMachineSnapshot; steps: Array<{ event: AnyEventObject }> }>;
  return paths.map((path) => {
    const events = path.steps.map((step) => step.event).filter((event) => event.type !== 'xstate.init');
    return {
      description: events.length ? events.map(describeEvent).join(' → ') : '(initial state)',
      events,
      expected: path.state,
    };
  });
}

/** A path that no other path extends, with the states its prefixes that are paths themselves reach. */
export interface ModelWalk extends ModelPath {
  /** By number of events taken (0: the started actor), the paths that end there. */
  checkpoints: ReadonlyMap<number, ModelPath[]>;
}

/**
 * The paths that no other path extends, each carrying the paths it extends as checkpoints. In a
 * shortest-path tree every path is its parent's events (the same event objects) and one more, so
 * walking these with their checkpoints reaches every state and takes every transition the whole
 * set would, and checks every path's expected state where that path ends. Prefixes are matched
 * by event identity: a path is folded into another only when it is that path's very start.
 */
export function longestWalks(paths: ModelPath[]): ModelWalk[] {
  type Node = { children: Map<AnyEventObject, Node>; ends: ModelPath[] };
  const root: Node = { children: new Map(), ends: [] };
  for (const path of paths) {
    let node = root;
    for (const event of path.events) {
      let child = node.children.get(event);
      if (!child) {
        child = { children: new Map(), ends: [] };
        node.children.set(event, child);
      }
      node = child;
    }
    node.ends.push(path);
  }
  const walks: ModelWalk[] = [];
  const along: Array<[number, ModelPath[]]> = [];
  const visit = (node: Node, depth: number) => {
    if (node.ends.length) along.push([depth, node.ends]);
    if (node.children.size === 0) {
      const path = node.ends[0]!;
      walks.push({ ...path, checkpoints: new Map(along) });
    }
    for (const child of node.children.values()) visit(child, depth + 1);
    if (node.ends.length) along.pop();
  };
  visit(root, 0);
  return walks;
}

/** Collects the transitions taken while paths run, per machine name. */
export class CoverageRecorder {
  readonly taken = new Set<string>();
  readonly name: string;
  readonly all: Set<string>;
  constructor(name: string, all: Set<string>) {
    this.name = name;
    this.all = all;
  }

  inspect = (event: InspectionEvent) => {
    if (event.type !== '@xstate.microstep') return;
    for (const t of event._transitions) {
      const id = transitionId(t);
      if (this.all.has(id)) this.taken.add(id);
    }
  };

  missing(): string[] {
    return [...this.all].filter((id) => !this.taken.has(id)).sort();
  }

  /** Prints `model coverage <machine>: N/M transitions` and records it for the test runner. */
  report(level: 'logic' | 'ui'): string {
    const line = `model coverage ${this.name}${level === 'ui' ? ' (through the app)' : ''}: ${this.taken.size}/${this.all.size} transitions`;
    console.log(line);
    const dir = join(process.cwd(), 'test-results', 'model-coverage');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${this.name}.${level}.json`), JSON.stringify({ line, missing: this.missing() }));
    return line;
  }
}

/**
 * An inspector for a whole actor system (the rendered app): each transition taken is counted
 * for the recorder of the machine it belongs to (by the machine's id); others are ignored.
 */
export function recordByMachine(recorders: ReadonlyMap<string, CoverageRecorder>) {
  return (event: InspectionEvent) => {
    if (event.type !== '@xstate.microstep') return;
    for (const t of event._transitions) {
      const recorder = recorders.get((t.source as AnyStateNode).machine.id);
      const id = transitionId(t);
      if (recorder?.all.has(id)) recorder.taken.add(id);
    }
  };
}

/**
 * Runs one path on a real actor of the machine and returns its final snapshot; `onStep` sees the
 * snapshot after the start and after each event, with the number of events taken. The actor's
 * own timers never fire (SimulatedClock); invoked fakes never settle; the path's events do it.
 */
export function replay(
  machine: AnyStateMachine,
  input: unknown,
  events: AnyEventObject[],
  recorder: CoverageRecorder,
  onStep?: (snapshot: AnyMachineSnapshot, taken: number) => void,
): AnyMachineSnapshot {
  const actor = createActor(machine, { input, clock: new SimulatedClock(), inspect: recorder.inspect } as never);
  actor.start();
  onStep?.(actor.getSnapshot() as AnyMachineSnapshot, 0);
  events.forEach((event, index) => {
    actor.send(event);
    onStep?.(actor.getSnapshot() as AnyMachineSnapshot, index + 1);
  });
  const snapshot = actor.getSnapshot() as AnyMachineSnapshot;
  actor.stop();
  return snapshot;
}
