import { memo, useEffect, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { TimelineItem } from './session-timeline.js';
import { TimelineRow } from './timeline-row.js';

/**
 * The timeline, virtualised: only the rows in view (plus a few) are in the DOM, so a session with 10,000
 * events scrolls like one with ten. Follows the newest row while the view is at the bottom.
 */
export function TimelineList({
  items,
  version,
  revision,
  onResolved,
}: {
  items: readonly TimelineItem[];
  version: number;
  revision(item: TimelineItem): number;
  onResolved(): void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 56,
    overscan: 6,
    getItemKey: (index) => items[index]!.key,
  });
  useEffect(() => {
    // Plain scrollTop, not scrollToIndex: the latter re-measures in a loop while rows keep arriving.
    const element = scroller.current;
    if (atBottom.current && element) element.scrollTop = element.scrollHeight;
  }, [version, items.length]);
  return (
    <div
      ref={scroller}
      className="timeline"
      data-testid="timeline"
      tabIndex={0}
      aria-label="Session timeline"
      onScroll={(event) => {
        const element = event.currentTarget;
        atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < 80;
      }}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((row) => (
          <div
            key={row.key}
            data-index={row.index}
            ref={virtualizer.measureElement}
            className="row-slot"
            style={{ transform: `translateY(${row.start}px)` }}
          >
            <MemoRow
              item={items[row.index]!}
              revision={revision(items[row.index]!)}
              onResolved={onResolved}
            />
          </div>
        ))}
      </div>
    </div>
  );
}

/** Items change in place: a row re-renders when its revision moves, not when another row changes. */
const MemoRow = memo(TimelineRow);
