package org.rouse.api.internal.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.SettingDefinition;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/** A timer handler started at least {@code latenessThreshold} after its due time. */
@Name(TimerLateEvent.NAME)
@Label("Timer Late")
@Category({"Rouse", "Timer"})
@Description("A timer handler started more than the lateness threshold after its deadline")
@StackTrace(false)
final class TimerLateEvent extends jdk.jfr.Event {

    static final String NAME = "org.rouse.TimerLate";

    @Label("Owner")
    @Description("The timer owner (TimerService.owner name) whose serial queue ran the handler")
    String owner;

    @Label("Timer")
    @Description("The timer: its number within the owner and its kind")
    String timer;

    @Label("Lateness")
    @Description("How long after its deadline the handler started")
    @Timespan(Timespan.NANOSECONDS)
    long lateness;

    @Label("Lateness Threshold")
    @Description("Record only handlers at least this late")
    @Name("latenessThreshold")
    @SettingDefinition
    protected boolean latenessThreshold(NanosThreshold threshold) {
        return threshold.accept(lateness);
    }
}
