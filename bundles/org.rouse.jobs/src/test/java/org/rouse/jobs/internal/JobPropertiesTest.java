package org.rouse.jobs.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JobPropertiesTest {

    private static JobSpec read(Object... keyValues) throws JobProperties.InvalidJobException {
        return JobProperties.read(map(keyValues)::get, 7);
    }

    private static Map<String, Object> map(Object... keyValues) {
        Map<String, Object> map = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            map.put((String) keyValues[i], keyValues[i + 1]);
        }
        return map;
    }

    private static JobProperties.InvalidJobException rejected(Object... keyValues) {
        return assertThrows(JobProperties.InvalidJobException.class, () -> read(keyValues));
    }

    @Test
    void aPeriodInSecondsWithSlingDefaults() throws Exception {
        JobSpec spec = read("scheduler.period", 5L);
        assertFalse(spec.isCron());
        assertEquals(Duration.ofSeconds(5), spec.period());
        assertFalse(spec.concurrent(), "runs never overlap unless scheduler.concurrent=true");
        assertFalse(spec.immediate());
        assertEquals(JobSpec.UNLIMITED, spec.times());
        assertNull(spec.runOn());
        assertEquals("job.7", spec.name());
    }

    @Test
    void integralNumbersAndStringsOfDigitsAreAccepted() throws Exception {
        assertEquals(Duration.ofSeconds(3), read("scheduler.period", 3).period());
        assertEquals(Duration.ofSeconds(4), read("scheduler.period", " 4 ").period());
        assertEquals(2, read("scheduler.period", 1L, "scheduler.times", "2").times());
        assertEquals(9, read("scheduler.period", 1L, "scheduler.times", 9).times());
    }

    @Test
    void flagsNameAndRunOn() throws Exception {
        JobSpec spec = read(
                "scheduler.period",
                1L,
                "scheduler.concurrent",
                true,
                "scheduler.immediate",
                "TRUE",
                "scheduler.name",
                " cleanup ",
                "scheduler.runOn",
                new String[] {"LEADER"});
        assertTrue(spec.concurrent());
        assertTrue(spec.immediate());
        assertEquals("cleanup", spec.name());
        assertEquals("LEADER", spec.runOn());
        assertEquals(
                "SINGLE",
                read("scheduler.period", 1L, "scheduler.runOn", "SINGLE").runOn());
    }

    @Test
    void theNameDefaultsToThePidAndServiceIdLikeSling() throws Exception {
        assertEquals(
                "org.example.Cleanup.7",
                read("scheduler.period", 1L, "service.pid", "org.example.Cleanup")
                        .name());
    }

    @Test
    void anExpressionWinsOverAPeriodAndThenImmediateAndTimesDoNotApply() throws Exception {
        JobSpec spec = read(
                "scheduler.expression",
                "0/2 * * * * ?",
                "scheduler.period",
                60L,
                "scheduler.immediate",
                true,
                "scheduler.times",
                3);
        assertTrue(spec.isCron());
        assertNull(spec.period());
        assertFalse(spec.immediate());
        assertEquals(JobSpec.UNLIMITED, spec.times());
        assertEquals(List.of("scheduler.period", "scheduler.immediate", "scheduler.times"), spec.notes());
        ZonedDateTime start = ZonedDateTime.of(2026, 1, 1, 0, 0, 1, 0, ZoneOffset.UTC);
        assertEquals(start.plusSeconds(1), spec.cron().nextAfter(start).orElseThrow());
    }

    @Test
    void quartzCronWithYearAndDayOfWeekNames() throws Exception {
        JobSpec spec = read("scheduler.expression", "0 30 2 ? * MON-FRI 2030");
        ZonedDateTime friday = ZonedDateTime.of(2030, 1, 4, 12, 0, 0, 0, ZoneOffset.UTC);
        assertEquals(
                ZonedDateTime.of(2030, 1, 7, 2, 30, 0, 0, ZoneOffset.UTC),
                spec.cron().nextAfter(friday).orElseThrow());
        assertTrue(spec.cron().nextAfter(friday.withYear(2031)).isEmpty(), "no time after the last year");
    }

    @Test
    void neitherExpressionNorPeriodIsNotAJob() {
        assertThrows(IllegalArgumentException.class, () -> read("scheduler.name", "x"));
    }

    @Test
    void badValuesNameThePropertyTheValueAndWhatIsAllowed() {
        JobProperties.InvalidJobException e = rejected("scheduler.period", -5L);
        assertEquals("scheduler.period", e.property);
        assertEquals("scheduler.period = -5 (long) is not allowed: whole seconds ≥ 1 (a Long)", e.getMessage());
        assertEquals("scheduler.period", rejected("scheduler.period", 0L).property);
        assertEquals("scheduler.period", rejected("scheduler.period", 1.5d).property);
        assertEquals("scheduler.period", rejected("scheduler.period", "soon").property);

        e = rejected("scheduler.expression", "every second");
        assertEquals("scheduler.expression", e.property);
        assertTrue(
                e.getMessage().startsWith("scheduler.expression = \"every second\" is not allowed: a Quartz cron"),
                e.getMessage());
        assertEquals("scheduler.expression", rejected("scheduler.expression", "* * * * *").property, "Unix 5 fields");
        assertEquals("scheduler.expression", rejected("scheduler.expression", 5L).property);

        e = rejected("scheduler.period", 1L, "scheduler.runOn", "ELSEWHERE");
        assertEquals("scheduler.runOn = \"ELSEWHERE\" is not allowed: LEADER or SINGLE", e.getMessage());
        assertEquals("scheduler.runOn", rejected("scheduler.period", 1L, "scheduler.runOn", "leader").property);

        assertEquals("scheduler.times", rejected("scheduler.period", 1L, "scheduler.times", 0).property);
        assertEquals("scheduler.times", rejected("scheduler.period", 1L, "scheduler.times", -1L).property);
        assertEquals("scheduler.concurrent", rejected("scheduler.period", 1L, "scheduler.concurrent", "yes").property);
        assertEquals("scheduler.immediate", rejected("scheduler.period", 1L, "scheduler.immediate", 1).property);
        assertEquals("scheduler.name", rejected("scheduler.period", 1L, "scheduler.name", " ").property);
    }

    @Test
    void aBadValueRejectsTheJobEvenWhereItWouldNotApply() {
        assertEquals("scheduler.times", rejected("scheduler.expression", "* * * * * ?", "scheduler.times", 0).property);
    }
}
