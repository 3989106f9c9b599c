package org.rouse.api.internal.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.SettingDefinition;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/** A thread waited at least {@code waitThreshold} to acquire a Rouse lock; the stack trace is where it waited. */
@Name(LockContendedEvent.NAME)
@Label("Lock Contended")
@Category({"Rouse", "Lock"})
@Description("A thread waited longer than the wait threshold to acquire a Rouse lock")
@StackTrace(true)
final class LockContendedEvent extends jdk.jfr.Event {

    static final String NAME = "org.rouse.LockContended";

    @Label("Lock")
    @Description("The lock's name (a stripe is named set#index)")
    String lock;

    @Label("Strategy")
    @Description("The strategy of the primitive the thread acquired")
    String strategy;

    @Label("Wait")
    @Description("From the failed first attempt to holding the lock")
    @Timespan(Timespan.NANOSECONDS)
    long wait;

    @Label("Wait Threshold")
    @Description("Record only waits at least this long")
    @Name("waitThreshold")
    @SettingDefinition
    protected boolean waitThreshold(NanosThreshold threshold) {
        return threshold.accept(wait);
    }
}
