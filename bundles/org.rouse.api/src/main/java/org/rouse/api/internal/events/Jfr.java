package org.rouse.api.internal.events;

import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;
import org.rouse.lock.spi.LockPrimitive;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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

    private static final Logger LOG = LoggerFactory.getLogger(Jfr.class);

    private static final EventType TIMER_LATE = register(TimerLateEvent.class);
    private static final EventType LOCK_CONTENDED = register(LockContendedEvent.class);
    private static final EventType SLOW_UPCALL = register(SlowUpcallEvent.class);
    private static final EventType ENGINE_SWAP = register(EngineSwapEvent.class);

    private Jfr() {}

    private static EventType register(Class<? extends jdk.jfr.Event> type) {
        FlightRecorder.register(type);
        return EventType.getEventType(type);
    }

    /**
     * Set once an event class cannot run its JFR instrumentation; plain (a racing reader at worst tries once more and
     * fails the same way). On JDK 17 the instrumented event class links to a generated handler class in
     * jdk.jfr.internal.handlers, which a bundle class loader cannot see unless the framework boot-delegates that
     * package (docs/observability.md); without it every commit would throw NoClassDefFoundError into the thread
     * that just acquired a lock or ran a handler.
     */
    private static boolean broken;

    static boolean timerLateEnabled() {
        return TIMER_LATE.isEnabled() && !broken;
    }

    static boolean lockContendedEnabled() {
        return LOCK_CONTENDED.isEnabled() && !broken;
    }

    static boolean slowUpcallEnabled() {
        return SLOW_UPCALL.isEnabled() && !broken;
    }

    static boolean engineSwapEnabled() {
        return ENGINE_SWAP.isEnabled() && !broken;
    }

    /** Runs one event's code; a linkage failure of the instrumentation turns every event off, and never escapes. */
    private static void guarded(Runnable commit) {
        try {
            commit.run();
        } catch (LinkageError e) {
            if (!broken) {
                broken = true;
                LOG.warn(
                        "JFR events off: the event classes cannot link to JFR's handlers ({}); on JDK 17 in OSGi add"
                                + " jdk.jfr.internal.handlers to org.osgi.framework.bootdelegation",
                        e.toString());
            }
        }
    }

    static void timerLate(String owner, Object timer, long latenessNanos) {
        guarded(() -> timerLateNow(owner, timer, latenessNanos));
    }

    static void lockContended(String name, LockPrimitive primitive, long startNanos) {
        guarded(() -> lockContendedNow(name, primitive, startNanos));
    }

    static void slowUpcall(String bundle, Object channel, long startNanos) {
        guarded(() -> slowUpcallNow(bundle, channel, startNanos));
    }

    static void engineSwap(String service, String from, String to, long pauseNanos, long moved) {
        guarded(() -> engineSwapNow(service, from, to, pauseNanos, moved));
    }

    private static void timerLateNow(String owner, Object timer, long latenessNanos) {
        TimerLateEvent event = new TimerLateEvent();
        event.lateness = latenessNanos;
        if (event.shouldCommit()) { // the lateness threshold is checked here, before any string is built
            event.owner = owner;
            event.timer = String.valueOf(timer);
            event.commit();
        }
    }

    private static void lockContendedNow(String name, LockPrimitive primitive, long startNanos) {
        LockContendedEvent event = new LockContendedEvent();
        event.wait = System.nanoTime() - startNanos;
        if (event.shouldCommit()) {
            event.lock = name;
            event.strategy = primitive.strategy();
            event.commit();
        }
    }

    private static void slowUpcallNow(String bundle, Object channel, long startNanos) {
        SlowUpcallEvent event = new SlowUpcallEvent();
        event.upcallDuration = System.nanoTime() - startNanos;
        if (event.shouldCommit()) {
            event.bundle = bundle;
            event.channel = String.valueOf(channel);
            event.commit();
        }
    }

    private static void engineSwapNow(String service, String from, String to, long pauseNanos, long moved) {
        EngineSwapEvent event = new EngineSwapEvent();
        event.service = service;
        event.from = from == null ? "none" : from;
        event.to = to == null ? "none" : to;
        event.pause = pauseNanos;
        event.moved = moved;
        event.commit();
    }
}
