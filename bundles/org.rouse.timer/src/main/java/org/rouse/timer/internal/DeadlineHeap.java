package org.rouse.timer.internal;

import java.util.Arrays;
import org.rouse.timer.spi.TimerEntry;

/**
 * An indexed binary min-heap of {@link TimerEntry}s ordered by deadline (compared as {@code a - b < 0}, the
 * {@link System#nanoTime()} way, so it survives the clock's wrap-around). Each entry records its index in its engine position (see {@link WheelPosition}), so
 * {@link #remove(TimerEntry)} is O(log n) rather than a linear search. Not thread-safe: the engine's lock guards it.
 */
final class DeadlineHeap {

    /** {@link WheelPosition#REACHED_HEAP} or {@link WheelPosition#OVERFLOW_HEAP}: part of each entry's position. */
    private final int heap;

    private TimerEntry[] nodes = new TimerEntry[16];
    private int size;
    /**
     * Removals in a row that left the heap at a quarter of its array or less (an add above that resets it): the
     * array is halved only after as many of them as it has slots, so a heap that fills and drains every tick keeps
     * its array instead of copying it up and down each time, while a one-off burst is still given back, in amortized
     * O(1).
     */
    private int opsSinceResize;

    /** A heap whose entries are marked as in heap {@code heap} (see {@link WheelPosition}). */
    DeadlineHeap(int heap) {
        this.heap = heap;
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Whether {@code entry} is this heap's entry at {@code index} (checked, not trusted: see TimingWheel#holds). */
    boolean holds(TimerEntry entry, int index) {
        return index < size && nodes[index] == entry;
    }

    TimerEntry peek() {
        return size == 0 ? null : nodes[0];
    }

    void add(TimerEntry node) {
        if (size == nodes.length) {
            nodes = Arrays.copyOf(nodes, size * 2);
        }
        if (size >= nodes.length / 4) {
            opsSinceResize = 0; // in use again: a shrink waits for another long spell at a quarter or less
        }
        siftUp(size++, node);
    }

    TimerEntry poll() {
        TimerEntry first = nodes[0];
        remove(first);
        return first;
    }

    void remove(TimerEntry node) {
        int index = WheelPosition.arrayIndex(node.enginePosition());
        TimerEntry last = nodes[--size];
        nodes[size] = null;
        if (last != node) {
            siftDown(index, last);
            if (nodes[index] == last) {
                siftUp(index, last);
            }
        }
        node.enginePosition(WheelPosition.DETACHED);
        if (nodes.length > 64 && size < nodes.length / 4 && ++opsSinceResize > nodes.length) {
            nodes = Arrays.copyOf(nodes, nodes.length / 2); // a burst of far timers does not pin memory for good
            opsSinceResize = 0;
        }
    }

    /** Moves every node to {@code sink} (unordered) and empties the heap. */
    void removeAll(java.util.function.Consumer<TimerEntry> sink) {
        for (int i = 0; i < size; i++) {
            TimerEntry node = nodes[i];
            nodes[i] = null;
            node.enginePosition(WheelPosition.DETACHED);
            sink.accept(node);
        }
        size = 0;
    }

    private void siftUp(int index, TimerEntry node) {
        long deadline = node.deadlineNanos();
        while (index > 0) {
            int parent = (index - 1) >>> 1;
            TimerEntry above = nodes[parent];
            if (deadline - above.deadlineNanos() >= 0) {
                break;
            }
            place(index, above);
            index = parent;
        }
        place(index, node);
    }

    private void siftDown(int index, TimerEntry node) {
        long deadline = node.deadlineNanos();
        int half = size >>> 1;
        while (index < half) {
            int child = 2 * index + 1;
            TimerEntry smaller = nodes[child];
            int right = child + 1;
            if (right < size && nodes[right].deadlineNanos() - smaller.deadlineNanos() < 0) {
                child = right;
                smaller = nodes[right];
            }
            if (deadline - smaller.deadlineNanos() <= 0) {
                break;
            }
            place(index, smaller);
            index = child;
        }
        place(index, node);
    }

    private void place(int index, TimerEntry node) {
        nodes[index] = node;
        node.enginePosition(WheelPosition.inArray(heap, index));
    }
}
