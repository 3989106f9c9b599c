package org.rouse.api.internal.console;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The last {@value #KEPT} engine swaps of all fronts, newest first, for the console page. Every front's
 * {@code swapTo(engine)} reports its end here (through {@code RouseEvents.engineSwap}), whether or not a console is
 * installed: recording costs one short synchronized append per swap.
 *
 * <p>Implementation notes: a static bounded deque, because swaps happen while no console component may be active and
 * the page should still show them; the API bundle's class loader bounds its lifetime (an updated API bundle starts
 * empty).
 */
public final class RecentSwaps {

    /** How many swaps are kept. */
    public static final int KEPT = 20;

    /** One finished swap: wall-clock end, service, engine names, pause and items moved. */
    public record Swap(long epochMillis, String service, String from, String to, long pauseNanos, long moved) {}

    /** Newest first; guarded by itself. */
    private static final ArrayDeque<Swap> SWAPS = new ArrayDeque<>();

    private RecentSwaps() {}

    /** Records one swap of {@code service} from engine {@code from} to {@code to} ({@code null}: none). */
    public static void record(String service, String from, String to, long pauseNanos, long moved) {
        Swap swap = new Swap(
                System.currentTimeMillis(),
                service,
                from == null ? "none" : from,
                to == null ? "none" : to,
                pauseNanos,
                moved);
        synchronized (SWAPS) {
            SWAPS.addFirst(swap);
            while (SWAPS.size() > KEPT) {
                SWAPS.removeLast();
            }
        }
    }

    /** The kept swaps, newest first. */
    public static List<Swap> list() {
        synchronized (SWAPS) {
            return new ArrayList<>(SWAPS);
        }
    }
}
