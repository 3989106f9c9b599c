package org.rouse.api.internal.events;

import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;
import org.rouse.lock.spi.LockPrimitive;

/** The event types and the committing code; loaded only by RouseEvents once jdk.jfr is known to be visible. */
final class Jfr {

    /*
     * Implementation notes.
     *
     * Layout. One EventType per event, looked up once: EventType.isEnabled() is true while some running recording
     * enables the event, and is the cheapest public test that needs no event instance. Registering up front (rather
     * than on the first commit) makes the events, with their settings, visible to a recording started later with
     * rouse.jfc, and to JDK Mission Control's event browser, before the first one fires.
     */

    private static final EventType TIMER_LATE = register(TimerLateEvent.class);
    private static final EventType LOCK_CONTENDED = register(LockContendedEvent.class);
    private static final EventType SLOW_UPCALL = register(SlowUpcallEvent.class);
    private static final EventType ENGINE_SWAP = register(EngineSwapEvent.class);

    private Jfr() {}

    private static EventType register(Class<? extends jdk.jfr.Event> type) {
        FlightRecorder.register(type);
        return EventType.getEventType(type);
    }

    static boolean timerLateEnabled() {
        return TIMER_LATE.isEnabled();
    }

    static boolean lockContendedEnabled() {
        return LOCK_CONTENDED.isEnabled();
    }

    static boolean slowUpcallEnabled() {
        return SLOW_UPCALL.isEnabled();
    }

    static boolean engineSwapEnabled() {
        return ENGINE_SWAP.isEnabled();
    }

    static void timerLate(String owner, Object timer, long latenessNanos) {
        TimerLateEvent event = new TimerLateEvent();
        event.lateness = latenessNanos;
        if (event.shouldCommit()) { // the lateness threshold is checked here, before any string is built
            event.owner = owner;
            event.timer = String.valueOf(timer);
            event.commit();
        }
    }

    static void lockContended(String name, LockPrimitive primitive, long startNanos) {
        LockContendedEvent event = new LockContendedEvent();
        event.wait = System.nanoTime() - startNanos;
        if (event.shouldCommit()) {
            event.lock = name;
            event.strategy = primitive.strategy();
            event.commit();
        }
    }

    static void slowUpcall(String bundle, Object channel, long startNanos) {
        SlowUpcallEvent event = new SlowUpcallEvent();
        event.upcallDuration = System.nanoTime() - startNanos;
        if (event.shouldCommit()) {
            event.bundle = bundle;
            event.channel = String.valueOf(channel);
            event.commit();
        }
    }

    static void engineSwap(String service, String from, String to, long pauseNanos, long moved) {
        EngineSwapEvent event = new EngineSwapEvent();
        event.service = service;
        event.from = from == null ? "none" : from;
        event.to = to == null ? "none" : to;
        event.pause = pauseNanos;
        event.moved = moved;
        event.commit();
    }
}
