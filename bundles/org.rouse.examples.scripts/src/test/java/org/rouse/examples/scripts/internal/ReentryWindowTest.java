package org.rouse.examples.scripts.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ReentryWindowTest {

    @Test
    void summarizesMeanStdevAndP99LatenessThenStartsAfresh() {
        ReentryWindow window = new ReentryWindow();
        for (int i = 0; i < 100; i++) {
            window.record(i % 2 == 0 ? 49_000_000 : 51_000_000, i * 1_000L); // 49 and 51 ms alternately
        }
        ReentryWindow.Summary summary = window.takeSummary();
        assertEquals(100, summary.events());
        assertEquals(0.050, summary.meanSeconds(), 1e-9);
        assertEquals(0.001, summary.stdevSeconds(), 1e-9);
        assertEquals(98_000, summary.p99LatenessNanos());
        assertEquals(
                "711 scripts: mean re-entry 0.050000 s, stdev 1.000 ms, p99 lateness 0.098 ms (100 events)",
                summary.line(711));
        assertEquals(0, window.takeSummary().events(), "a new window starts empty");
    }
}
