package org.rouse.timer.internal;

import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.rouse.timer.spi.TimerEntry;

/**
 * The entries whose tick a {@link TimingWheel} has reached, in deadline order: what the dispatcher fires next. Not
 * thread-safe: the engine's lock guards it.
 */
final class ReachedQueue {

    /*
     * Implementation notes.
     *
     * Why not one heap. A busy wheel moves a whole level-0 slot here at each tick (10,000 timers of 50 ms: ~100
     * entries per tick of 524 µs) and takes them out again within the tick. In a binary heap each of those entries
     * costs a sift up and a sift down of ~7 levels, and each level reads the deadline of another entry (an object of
     * its own, mostly not in cache) and writes its position: in a single-threaded probe of the wheel the heap took half
     * of the wheel's time per event (docs/performance.md, "Timers: a reached tick fired from a sorted run").
     *
     * Layout. A sorted run (`run`, `runDeadlines`, from `runStart` to `runEnd`) and a DeadlineHeap (`heap`). A slot
     * that the wheel reaches as a whole is gathered, sorted once and appended to the run: the sort works on one long
     * per entry (the deadline's offset within the tick, shifted above the entry's gathering index), so it reads each
     * entry once and compares primitives only; firing then reads the next deadline from `runDeadlines` without
     * touching the entry. A removed entry leaves a null in the run. Whatever is reached on its own (an arm for the
     * current tick or the past, an entry of the current tick cascaded from a higher slot, a spread entry, an entry
     * re-placed by a rebuild of the wheel) goes into the heap, as does a batch that would not keep
     * the run sorted (never, as the wheel calls it: it gathers one slot per tick, in tick order, and every entry of an
     * earlier tick has an earlier deadline).
     *
     * Invariants (checked by checkInvariants).
     * 1. runDeadlines is non-decreasing (a - b >= 0, the nanoTime way) from runStart to runEnd, over every index,
     *    null or not, and runDeadlines[i] is run[i]'s deadline where run[i] is not null.
     * 2. An entry at run index i has position inArray(REACHED_RUN, i); `runLive` counts the non-null run entries.
     * 3. run[runStart] is not null unless the run is empty, in which case runStart == runEnd == 0.
     * 4. Nothing is gathered between calls: gathering starts and ends within one call of the wheel.
     *
     * Sizes. The run's arrays grow to the largest run (a burst of timers in one tick) and are halved after
     * SHRINK_AFTER appends in a row that needed under a quarter of them; the gathering arrays likewise after as many
     * batches. A run that fills and drains every tick keeps its arrays; a burst's are given back within seconds of
     * steady work (at one append per tick), never while the engine is idle.
     */

    private final DeadlineHeap heap = new DeadlineHeap(WheelPosition.REACHED_HEAP);
    /** Bits of a deadline's offset within its tick (the wheel's tick shift); the gathering index gets the rest. */
    private final int offsetBits;

    private TimerEntry[] run = new TimerEntry[64];
    private long[] runDeadlines = new long[64];
    private int runStart;
    private int runEnd;
    private int runLive;

    private TimerEntry[] gathered = new TimerEntry[64];
    private long[] keys = new long[64];
    private int gatheredCount;
    /** Appends in a row that needed under a quarter of the run's arrays: see {@link #shrinkRunIfOversized}. */
    private int smallAppends;
    /** Batches in a row that filled under a quarter of the gathering arrays: as {@link #smallAppends}. */
    private int smallGathers;

    /** The smallest length of each array. */
    private static final int MIN_LENGTH = 64;
    /**
     * Appends (or batches) in a row, each needing under a quarter of an array, after which the array is halved: at one
     * append per tick, a run grown by a burst is back to its floor within seconds of steady work.
     */
    static final int SHRINK_AFTER = 1024;

    ReachedQueue(int tickShift) {
        if (tickShift < 0 || tickShift > 40) {
            throw new IllegalArgumentException("tick shift " + tickShift + " is not within 0..40");
        }
        this.offsetBits = tickShift;
    }

    int size() {
        return runLive + heap.size();
    }

    boolean isEmpty() {
        return runLive == 0 && heap.isEmpty();
    }

    /** Adds one entry reached on its own. */
    void add(TimerEntry node) {
        heap.add(node);
    }

    /** Gathers an entry of the tick starting at the {@code tickStartNanos} passed to the next {@link #appendGathered}. */
    void gather(TimerEntry node) {
        if (gatheredCount == gathered.length) {
            gathered = Arrays.copyOf(gathered, gatheredCount * 2);
            keys = Arrays.copyOf(keys, gatheredCount * 2);
        }
        gathered[gatheredCount++] = node;
    }

    /**
     * Adds every gathered entry, all of the tick that starts at {@code tickStartNanos}: sorted onto the run when they
     * follow it, else into the heap.
     */
    void appendGathered(long tickStartNanos) {
        int n = gatheredCount;
        if (n == 0) {
            return;
        }
        gatheredCount = 0;
        long offsetLimit = 1L << offsetBits;
        int indexBits = 63 - offsetBits;
        boolean sortable = indexBits >= 31 || n < (1 << indexBits);
        for (int i = 0; i < n && sortable; i++) {
            long offset = gathered[i].deadlineNanos() - tickStartNanos;
            sortable = offset >= 0 && offset < offsetLimit;
            keys[i] = (offset << indexBits) | i;
        }
        if (sortable) {
            Arrays.sort(keys, 0, n);
            long first = tickStartNanos + (keys[0] >>> indexBits);
            sortable = runLive == 0 || first - runDeadlines[runEnd - 1] >= 0;
        }
        if (!sortable) {
            for (int i = 0; i < n; i++) {
                heap.add(gathered[i]);
                gathered[i] = null;
            }
            shrinkGatheringIfOversized(n);
            return;
        }
        shrinkRunIfOversized(n);
        makeRoom(n);
        long indexMask = (1L << indexBits) - 1;
        for (int i = 0; i < n; i++) {
            long key = keys[i];
            int from = (int) (key & indexMask);
            TimerEntry node = gathered[from];
            gathered[from] = null;
            run[runEnd] = node;
            runDeadlines[runEnd] = tickStartNanos + (key >>> indexBits);
            node.enginePosition(WheelPosition.inArray(WheelPosition.REACHED_RUN, runEnd));
            runEnd++;
        }
        runLive += n;
        shrinkGatheringIfOversized(n);
    }

    /** Makes room for {@code n} more run entries at runEnd: compacts the live ones to the front, or grows. */
    private void makeRoom(int n) {
        if (runEnd + n <= run.length) {
            return;
        }
        int live = runEnd - runStart;
        if (live + n > run.length) {
            resizeRun(Integer.highestOneBit(live + n - 1) << 1);
            return;
        }
        System.arraycopy(run, runStart, run, 0, live);
        System.arraycopy(runDeadlines, runStart, runDeadlines, 0, live);
        Arrays.fill(run, live, runEnd, null);
        movedToFront(live);
    }

    /**
     * Halves the run's arrays after {@link #SHRINK_AFTER} appends in a row that, with {@code n} more entries, would
     * fill under a quarter of them, so a burst of timers in one tick does not pin its arrays while the engine keeps
     * working, and a run that fills and drains every tick keeps them.
     */
    private void shrinkRunIfOversized(int n) {
        if (run.length <= MIN_LENGTH || runEnd - runStart + n >= run.length / 4) {
            smallAppends = 0;
        } else if (++smallAppends > SHRINK_AFTER) {
            smallAppends = 0;
            resizeRun(run.length / 2);
        }
    }

    /** As {@link #shrinkRunIfOversized}, for the gathering arrays after a batch of {@code n}. */
    private void shrinkGatheringIfOversized(int n) {
        if (gathered.length <= MIN_LENGTH || n >= gathered.length / 4) {
            smallGathers = 0;
        } else if (++smallGathers > SHRINK_AFTER) {
            smallGathers = 0;
            gathered = new TimerEntry[gathered.length / 2];
            keys = new long[gathered.length];
        }
    }

    /** Moves the run (runStart..runEnd, removed entries included) to the front of new arrays of {@code length}. */
    private void resizeRun(int length) {
        int live = runEnd - runStart;
        TimerEntry[] resized = new TimerEntry[length];
        long[] resizedDeadlines = new long[length];
        System.arraycopy(run, runStart, resized, 0, live);
        System.arraycopy(runDeadlines, runStart, resizedDeadlines, 0, live);
        run = resized;
        runDeadlines = resizedDeadlines;
        movedToFront(live);
    }

    /** The run now lies at 0..{@code live}: its entries' positions say so. */
    private void movedToFront(int live) {
        for (int i = 0; i < live; i++) {
            if (run[i] != null) {
                run[i].enginePosition(WheelPosition.inArray(WheelPosition.REACHED_RUN, i));
            }
        }
        runStart = 0;
        runEnd = live;
    }

    /** The earliest deadline here; only meaningful when not {@link #isEmpty()}. */
    long firstDeadline() {
        if (runLive == 0) {
            return heap.peek().deadlineNanos();
        }
        long fromRun = runDeadlines[runStart];
        return heap.isEmpty() || fromRun - heap.peek().deadlineNanos() <= 0
                ? fromRun
                : heap.peek().deadlineNanos();
    }

    /** Moves every entry due by {@code nowNanos} to {@code due}, in deadline order; returns how many. */
    int pollDue(long nowNanos, List<TimerEntry> due) {
        int moved = 0;
        for (; ; ) {
            boolean fromRun = runLive > 0 && runDeadlines[runStart] - nowNanos <= 0;
            TimerEntry next = heap.peek();
            boolean fromHeap = next != null && next.deadlineNanos() - nowNanos <= 0;
            if (fromRun && fromHeap) {
                fromHeap = next.deadlineNanos() - runDeadlines[runStart] < 0;
                fromRun = !fromHeap;
            }
            if (fromRun) {
                TimerEntry node = run[runStart];
                run[runStart] = null;
                node.enginePosition(WheelPosition.DETACHED);
                runLive--;
                skipRemoved();
                due.add(node);
            } else if (fromHeap) {
                due.add(heap.poll());
            } else {
                return moved;
            }
            moved++;
        }
    }

    /** Removes {@code node}, which is here (its position says where). */
    void remove(TimerEntry node) {
        int position = node.enginePosition();
        if (WheelPosition.arrayOf(position) == WheelPosition.REACHED_HEAP) {
            heap.remove(node);
            return;
        }
        int index = WheelPosition.arrayIndex(position);
        run[index] = null;
        node.enginePosition(WheelPosition.DETACHED);
        runLive--;
        if (index == runStart) {
            skipRemoved();
        } else if (runLive == 0) {
            emptied();
        }
    }

    /** Whether {@code node} is here at {@code position} (checked, not trusted: see TimingWheel#holds). */
    boolean holds(TimerEntry node, int position) {
        int index = WheelPosition.arrayIndex(position);
        if (WheelPosition.arrayOf(position) == WheelPosition.REACHED_HEAP) {
            return heap.holds(node, index);
        }
        return index >= runStart && index < runEnd && run[index] == node;
    }

    /** Moves every entry to {@code sink} (unordered) and empties the queue. */
    void removeAll(Consumer<TimerEntry> sink) {
        for (int i = runStart; i < runEnd; i++) {
            TimerEntry node = run[i];
            if (node != null) {
                run[i] = null;
                node.enginePosition(WheelPosition.DETACHED);
                sink.accept(node);
            }
        }
        runLive = 0;
        emptied();
        heap.removeAll(sink);
    }

    /** Moves runStart past removed entries (invariant 3). */
    private void skipRemoved() {
        if (runLive == 0) {
            emptied();
            return;
        }
        while (run[runStart] == null) {
            runStart++;
        }
    }

    private void emptied() {
        Arrays.fill(run, runStart, runEnd, null);
        runStart = 0;
        runEnd = 0;
    }

    /** The length of the run's arrays and of the gathering arrays; for tests. */
    int[] capacities() {
        return new int[] {run.length, gathered.length};
    }

    /** Throws if an invariant of the implementation notes does not hold; O(n), for tests. */
    void checkInvariants() {
        if (gatheredCount != 0) {
            throw new AssertionError(gatheredCount + " entries left gathered");
        }
        if (runLive == 0 && (runStart != 0 || runEnd != 0)) {
            throw new AssertionError("an empty run from " + runStart + " to " + runEnd);
        }
        if (runLive > 0 && run[runStart] == null) {
            throw new AssertionError("the run starts at a removed entry, index " + runStart);
        }
        int live = 0;
        for (int i = runStart; i < runEnd; i++) {
            if (i > runStart && runDeadlines[i] - runDeadlines[i - 1] < 0) {
                throw new AssertionError("the run is out of order at index " + i);
            }
            TimerEntry node = run[i];
            if (node == null) {
                continue;
            }
            live++;
            if (node.enginePosition() != WheelPosition.inArray(WheelPosition.REACHED_RUN, i)
                    || node.deadlineNanos() != runDeadlines[i]) {
                throw new AssertionError("run entry " + i + " says it is elsewhere or has another deadline");
            }
        }
        if (live != runLive) {
            throw new AssertionError("the run counts " + runLive + " live entries of " + live);
        }
    }
}
