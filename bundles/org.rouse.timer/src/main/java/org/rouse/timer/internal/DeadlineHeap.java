package org.rouse.timer.internal;

import java.util.Arrays;

/**
 * An indexed binary min-heap of {@link WheelNode}s ordered by deadline (compared as {@code a - b < 0}, the
 * {@link System#nanoTime()} way, so it survives the clock's wrap-around). Each node records its index, so
 * {@link #remove(WheelNode)} is O(log n) rather than a linear search. Not thread-safe: the engine's lock guards it.
 */
final class DeadlineHeap {

    /** 0 for the reached heap, 1 for the overflow heap: part of each node's location (see WheelNode). */
    private final int heap;

    private WheelNode[] nodes = new WheelNode[16];
    private int size;
    /**
     * Removals in a row that left the heap at a quarter of its array or less (an add above that resets it): the
     * array is halved only after as many of them as it has slots, so a heap that fills and drains every tick (the
     * reached heap of a busy wheel) keeps its array instead of copying it up and down each time, while a one-off
     * burst is still given back, in amortized O(1).
     */
    private int opsSinceResize;

    /** A heap whose nodes are marked as in heap {@code heap} (0 reached, 1 overflow; see {@link WheelNode}). */
    DeadlineHeap(int heap) {
        this.heap = heap;
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    WheelNode peek() {
        return size == 0 ? null : nodes[0];
    }

    void add(WheelNode node) {
        if (size == nodes.length) {
            nodes = Arrays.copyOf(nodes, size * 2);
        }
        if (size >= nodes.length / 4) {
            opsSinceResize = 0; // in use again: a shrink waits for another long spell at a quarter or less
        }
        siftUp(size++, node);
    }

    WheelNode poll() {
        WheelNode first = nodes[0];
        remove(first);
        return first;
    }

    void remove(WheelNode node) {
        int index = WheelNode.heapIndex(node.location);
        WheelNode last = nodes[--size];
        nodes[size] = null;
        if (last != node) {
            siftDown(index, last);
            if (nodes[index] == last) {
                siftUp(index, last);
            }
        }
        node.location = WheelNode.DETACHED;
        if (nodes.length > 64 && size < nodes.length / 4 && ++opsSinceResize > nodes.length) {
            nodes = Arrays.copyOf(nodes, nodes.length / 2); // a burst of far timers does not pin memory for good
            opsSinceResize = 0;
        }
    }

    /** Moves every node to {@code sink} (unordered) and empties the heap. */
    void removeAll(java.util.function.Consumer<WheelNode> sink) {
        for (int i = 0; i < size; i++) {
            WheelNode node = nodes[i];
            nodes[i] = null;
            node.location = WheelNode.DETACHED;
            sink.accept(node);
        }
        size = 0;
    }

    private void siftUp(int index, WheelNode node) {
        while (index > 0) {
            int parent = (index - 1) >>> 1;
            WheelNode above = nodes[parent];
            if (node.deadlineNanos - above.deadlineNanos >= 0) {
                break;
            }
            place(index, above);
            index = parent;
        }
        place(index, node);
    }

    private void siftDown(int index, WheelNode node) {
        int half = size >>> 1;
        while (index < half) {
            int child = 2 * index + 1;
            WheelNode smaller = nodes[child];
            int right = child + 1;
            if (right < size && nodes[right].deadlineNanos - smaller.deadlineNanos < 0) {
                child = right;
                smaller = nodes[right];
            }
            if (node.deadlineNanos - smaller.deadlineNanos <= 0) {
                break;
            }
            place(index, smaller);
            index = child;
        }
        place(index, node);
    }

    private void place(int index, WheelNode node) {
        nodes[index] = node;
        node.location = WheelNode.inHeap(heap, index);
    }
}
