/**
 * What every side of the question-swap bench shares: mounting a React tree into its own container
 * with React DOM (no Testing Library: the bench runs React's production build, which has no
 * `act`) and swapping questions with its Next and Previous buttons.
 */
import type { ReactElement } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import examStyles from '../../src/screens/exam/exam.module.css';

export interface SwapUnderTest {
  /** Question 1 <-> 2, one swap per call, committed when it returns. */
  swap(): void;
  /** The exam's markup now (the element the swap changes). */
  markup(): string;
  stop(): void;
  /** Milliseconds spent in the machines' `send` (the exam's and its position child's) since the last call (the app side only). */
  machineTime?(): number;
}

/** Renders `element` into a new container; swaps with its Next and Previous buttons. */
export async function mounted(element: ReactElement, stop: () => void, machineTime?: () => number): Promise<SwapUnderTest> {
  const container = document.body.appendChild(document.createElement('div'));
  const root = createRoot(container);
  flushSync(() => root.render(element));
  const next = await shown(container, 'Next');
  const previous = await shown(container, 'Previous');
  let onFirst = true;
  return {
    swap() {
      flushSync(() => (onFirst ? next : previous).click());
      onFirst = !onFirst;
    },
    markup: () => container.querySelector(`.${examStyles.exam}`)?.outerHTML ?? '',
    stop() {
      root.unmount();
      container.remove();
      stop();
    },
    ...(machineTime ? { machineTime } : {}),
  };
}

/** The button with this text once the screen shows it (the router loads the route first). */
export async function shown(container: HTMLElement, name: string): Promise<HTMLButtonElement> {
  for (let tries = 0; tries < 100; tries++) {
    const button = [...container.querySelectorAll('button')].find((b) => b.textContent?.trim() === name);
    if (button) return button;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no "${name}" button: ${container.textContent}`);
}
