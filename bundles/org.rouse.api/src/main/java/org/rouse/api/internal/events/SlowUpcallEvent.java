package org.rouse.api.internal.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.SettingDefinition;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/** (The field is upcallDuration: JFR reserves "duration" for every event's own.) A selector upcall (a consumer's ChannelHandler.onReady) ran at least {@code durationThreshold}. */
@Name(SlowUpcallEvent.NAME)
@Label("Slow Upcall")
@Category({"Rouse", "Selector"})
@Description("A channel handler ran longer than the duration threshold")
@StackTrace(false)
final class SlowUpcallEvent extends jdk.jfr.Event {

    static final String NAME = "org.rouse.SlowUpcall";

    @Label("Bundle")
    @Description("The consuming bundle that registered the channel")
    String bundle;

    @Label("Channel")
    @Description("The channel (its toString: class and addresses)")
    String channel;

    @Label("Upcall Duration")
    @Description("How long the handler ran")
    @Timespan(Timespan.NANOSECONDS)
    long upcallDuration;

    @Label("Duration Threshold")
    @Description("Record only upcalls at least this long")
    @Name("durationThreshold")
    @SettingDefinition
    protected boolean durationThreshold(NanosThreshold threshold) {
        return threshold.accept(upcallDuration);
    }
}
