/**
 * A Visual Programming ordering answer: the blocks drawn as SVG puzzle pieces in one vertical
 * program, top to bottom (in Arabic too: a program runs downwards), each coloured by its
 * category and naming the category in words, with its own shape for event blocks (a "hat":
 * nothing can go above it), so colour is never the only clue.
 *
 * Three ways to reorder, each handing the new order to `onReorder` once a move is done:
 * - drag with the mouse or a finger (pointer events; the program follows the pointer and the
 *   move is handed over on release);
 * - the keyboard, the accessible drag-and-drop pattern: focus a block, Space picks it up,
 *   ↑/↓ move it, Space drops it, Escape puts it back; every step is announced
 *   ("Block Say hello, position 2 of 4");
 * - the visible "Move up" / "Move down" buttons beside every block.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { ProgramBlock } from '../../../contract/exam.ts';
import { BlockShape } from './block-shape.tsx';
import styles from './program-blocks.module.css';

export interface ProgramBlocksProps {
  blocks: ProgramBlock[];
  /** Block ids in the order the program shows them. */
  order: string[];
  disabled: boolean;
  onReorder(order: string[]): void;
}

type FocusTarget = { id: string; part: 'block' | 'up' | 'down' };

/** How far a pointer must travel before a press becomes a drag (a tap only focuses). */
const DRAG_THRESHOLD_PX = 6;

export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  const [item] = next.splice(from, 1);
  next.splice(Math.max(0, Math.min(next.length, to)), 0, item as T);
  return next;
}

export function ProgramBlocks({ blocks, order: initialOrder, disabled, onReorder }: ProgramBlocksProps) {
  const { t } = useLingui();
  const instructionsId = useId();
  const [order, setOrder] = useState(initialOrder);
  const [grabbed, setGrabbed] = useState<{ id: string; from: string[] } | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [dragging, setDragging] = useState<string | null>(null);
  /** A pointer drag under way; `order` is the latest (pointer events may come faster than renders). */
  const drag = useRef<{ id: string; pointerId: number; startY: number; from: string[]; order: string[]; moved: boolean } | null>(null);
  const items = useRef(new Map<string, HTMLLIElement>());
  const focusAfterMove = useRef<FocusTarget | null>(null);

  const byId = new Map(blocks.map((block) => [block.id, block]));
  const labelOf = (id: string) => byId.get(id)?.label ?? id;
  const total = order.length;
  const categoryName = {
    event: t`Event`,
    motion: t`Motion`,
    looks: t`Looks`,
    sound: t`Sound`,
    control: t`Control`,
  };
  const positionText = (id: string, list: string[]) => {
    const label = labelOf(id);
    const position = list.indexOf(id) + 1;
    return t`Block ${label}, position ${position} of ${total}`;
  };

  // React moves a reordered element in the DOM, which loses its focus: give it back.
  useLayoutEffect(() => {
    const target = focusAfterMove.current;
    if (!target) return;
    focusAfterMove.current = null;
    const item = items.current.get(target.id);
    // A move button that has just become disabled (top or bottom reached) hands the focus to its twin.
    const twin = target.part === 'up' ? 'down' : target.part === 'down' ? 'up' : 'block';
    const parts = [target.part, twin, 'block'].map((part) => item?.querySelector<HTMLElement>(`[data-part="${part}"]:not(:disabled)`));
    parts.find(Boolean)?.focus();
  });

  // The order last handed over (or first shown): a move that ends where it started is no answer.
  const handedOver = useRef(initialOrder.join(','));
  const commit = (next: string[]) => {
    if (next.join(',') === handedOver.current) return;
    handedOver.current = next.join(',');
    onReorder(next);
  };

  const moveBy = (id: string, delta: number, part: FocusTarget['part']) => {
    const from = order.indexOf(id);
    const to = from + delta;
    if (from < 0 || to < 0 || to >= order.length) return null;
    const next = moveItem(order, from, to);
    focusAfterMove.current = { id, part };
    setOrder(next);
    return next;
  };

  const onBlockKeyDown = (event: KeyboardEvent<HTMLElement>, id: string) => {
    if (disabled) return;
    if (event.key === ' ' || event.key === 'Enter') {
      event.preventDefault();
      if (grabbed) {
        setGrabbed(null);
        const label = labelOf(id);
        const position = order.indexOf(id) + 1;
        setAnnouncement(t`Dropped block ${label}, position ${position} of ${total}.`);
        commit(order);
      } else {
        setGrabbed({ id, from: order });
        const label = labelOf(id);
        const position = order.indexOf(id) + 1;
        setAnnouncement(
          t`Picked up block ${label}, position ${position} of ${total}. Move it with the up and down arrow keys, drop it with Space.`,
        );
      }
      return;
    }
    if (event.key === 'Escape' && grabbed) {
      event.preventDefault();
      setGrabbed(null);
      focusAfterMove.current = { id, part: 'block' };
      setOrder(grabbed.from);
      setAnnouncement(`${t`Move cancelled.`} ${positionText(id, grabbed.from)}`);
      return;
    }
    if ((event.key === 'ArrowUp' || event.key === 'ArrowDown') && grabbed?.id === id) {
      event.preventDefault();
      const next = moveBy(id, event.key === 'ArrowUp' ? -1 : 1, 'block');
      if (next) setAnnouncement(positionText(id, next));
    }
  };

  const onMoveButton = (id: string, delta: number) => {
    if (disabled) return;
    const next = moveBy(id, delta, delta < 0 ? 'up' : 'down');
    if (!next) return;
    setAnnouncement(positionText(id, next));
    commit(next);
  };

  const onPointerMove = (event: globalThis.PointerEvent) => {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    if (!current.moved) {
      if (Math.abs(event.clientY - current.startY) < DRAG_THRESHOLD_PX) return;
      current.moved = true;
      setDragging(current.id);
    }
    // The dragged block goes where the pointer is among the others' middles.
    const others = current.order.filter((other) => other !== current.id);
    const to = others.filter((other) => {
      const box = items.current.get(other)?.getBoundingClientRect();
      return box !== undefined && box.top + box.height / 2 < event.clientY;
    }).length;
    const from = current.order.indexOf(current.id);
    if (from !== to) {
      current.order = moveItem(current.order, from, to);
      setOrder(current.order);
    }
  };

  const onPointerEnd = (event: globalThis.PointerEvent) => {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    drag.current = null;
    setDragging(null);
    if (!current.moved) return;
    if (event.type === 'pointercancel') {
      setOrder(current.from);
      return;
    }
    focusAfterMove.current = { id: current.id, part: 'block' };
    const label = labelOf(current.id);
    const position = current.order.indexOf(current.id) + 1;
    setAnnouncement(t`Dropped block ${label}, position ${position} of ${total}.`);
    commit(current.order);
  };

  // A drag follows the pointer on the window, not by pointer capture: React moves the dragged
  // block's element in the DOM as the order changes, and a moved element loses its capture.
  const dragListeners = useRef<{ move(event: globalThis.PointerEvent): void; end(event: globalThis.PointerEvent): void } | null>(null);
  const stopListening = useRef(() => {});
  useEffect(() => {
    dragListeners.current = { move: onPointerMove, end: onPointerEnd };
  });
  useEffect(() => () => stopListening.current(), []);

  const onPointerDown = (event: PointerEvent<HTMLElement>, id: string) => {
    if (disabled || grabbed || drag.current || (event.pointerType === 'mouse' && event.button !== 0)) return;
    drag.current = { id, pointerId: event.pointerId, startY: event.clientY, from: order, order, moved: false };
    const move = (e: globalThis.PointerEvent) => dragListeners.current?.move(e);
    const end = (e: globalThis.PointerEvent) => {
      dragListeners.current?.end(e);
      if (!drag.current) stopListening.current();
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', end);
    window.addEventListener('pointercancel', end);
    stopListening.current = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', end);
      window.removeEventListener('pointercancel', end);
    };
  };

  return (
    <div className={styles.program}>
      <p id={instructionsId} className={styles.instructions}>
        <Trans>
          Drag the blocks into the right order, or use Move up and Move down. With the keyboard: Space picks a block up, the
          arrow keys move it, Space drops it.
        </Trans>
      </p>
      <ol className={styles.list} aria-label={t`Your program`}>
        {order.map((id, index) => {
          const block = byId.get(id);
          if (!block) return null;
          const isGrabbed = grabbed?.id === id;
          const label = block.label;
          return (
            <li
              key={id}
              ref={(element) => {
                if (element) items.current.set(id, element);
                else items.current.delete(id);
              }}
              className={styles.item}
              data-dragging={dragging === id || isGrabbed || undefined}
            >
              <div
                role="button"
                tabIndex={disabled ? -1 : 0}
                aria-disabled={disabled || undefined}
                aria-pressed={isGrabbed}
                aria-roledescription={t`movable block`}
                aria-describedby={instructionsId}
                data-part="block"
                data-category={block.category}
                className={styles.block}
                onKeyDown={(event) => onBlockKeyDown(event, id)}
                onBlur={() => {
                  // Leaving a picked-up block drops it where it is.
                  if (grabbed?.id === id && !focusAfterMove.current) {
                    setGrabbed(null);
                    commit(order);
                  }
                }}
                onPointerDown={(event) => onPointerDown(event, id)}
              >
                <BlockShape category={block.category} />
                <span className={styles.label} dir="auto">
                  {block.label}
                </span>
                <span className={styles.category}>{categoryName[block.category]}</span>
              </div>
              <div className={styles.moves}>
                <button
                  type="button"
                  className={`button ${styles.move}`}
                  data-part="up"
                  aria-label={t`Move up: ${label}`}
                  disabled={disabled || index === 0}
                  onClick={() => onMoveButton(id, -1)}
                >
                  <VerticalArrow direction="up" />
                  <Trans>Move up</Trans>
                </button>
                <button
                  type="button"
                  className={`button ${styles.move}`}
                  data-part="down"
                  aria-label={t`Move down: ${label}`}
                  disabled={disabled || index === order.length - 1}
                  onClick={() => onMoveButton(id, 1)}
                >
                  <VerticalArrow direction="down" />
                  <Trans>Move down</Trans>
                </button>
              </div>
            </li>
          );
        })}
      </ol>
      <div className="visually-hidden" aria-live="assertive" aria-atomic="true">
        {announcement}
      </div>
    </div>
  );
}

/** Up and down do not turn in right-to-left text (unlike ArrowIcon's back and forward). */
function VerticalArrow({ direction }: { direction: 'up' | 'down' }) {
  return (
    <svg className="icon" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2.25} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      {direction === 'up' ? <path d="M12 19V5m-6 6 6-6 6 6" /> : <path d="M12 5v14m-6-6 6 6 6-6" />}
    </svg>
  );
}
