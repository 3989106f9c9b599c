package org.rouse.api.internal.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/** A front swapped engines (swapTo): every one is recorded, they are rare. */
@Name(EngineSwapEvent.NAME)
@Label("Engine Swap")
@Category({"Rouse"})
@Description("A service front moved its timers, channels or locks to another engine")
@StackTrace(false)
final class EngineSwapEvent extends jdk.jfr.Event {

    static final String NAME = "org.rouse.EngineSwap";

    @Label("Service")
    @Description("timer, selector or lock")
    String service;

    @Label("From")
    @Description("The engine swapped out (none: the standby or fallback)")
    String from;

    @Label("To")
    @Description("The engine swapped in (none: the standby or fallback)")
    String to;

    @Label("Pause")
    @Description("How long the swap held the front's swap lock")
    @Timespan(Timespan.NANOSECONDS)
    long pause;

    @Label("Moved")
    @Description("Timers, channels or locks moved to the new engine")
    long moved;
}
