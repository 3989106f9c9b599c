package org.rouse.jobs.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;

/** Cron times are whole seconds, whatever the fraction of the time they are computed from. */
class CronScheduleTest {

    @Test
    void theNextTimeIsAWholeSecondWhenComputedFromWithinASecond() {
        ZonedDateTime within = ZonedDateTime.of(2026, 12, 1, 12, 0, 0, 947_000_000, ZoneOffset.UTC);
        assertEquals(
                ZonedDateTime.of(2026, 12, 1, 12, 0, 1, 0, ZoneOffset.UTC),
                CronSchedule.parse("* * * * * ?").nextAfter(within).orElseThrow());
        assertEquals(
                ZonedDateTime.of(2026, 12, 2, 3, 0, 0, 0, ZoneOffset.UTC),
                CronSchedule.parse("0 0 3 * * ?").nextAfter(within).orElseThrow());
    }

    @Test
    void theNextTimeIsStrictlyAfterAWholeSecond() {
        ZonedDateTime second = ZonedDateTime.of(2026, 12, 1, 12, 0, 1, 0, ZoneOffset.UTC);
        assertEquals(
                second.plusSeconds(1),
                CronSchedule.parse("* * * * * ?").nextAfter(second).orElseThrow());
    }
}
