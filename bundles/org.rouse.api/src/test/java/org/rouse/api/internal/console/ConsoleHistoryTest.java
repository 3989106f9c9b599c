package org.rouse.api.internal.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.IntCountsHistogram;
import org.junit.jupiter.api.Test;

/** The console page's per-second history: rates, per-second and last-minute lateness, the 60-point ring, JSON. */
class ConsoleHistoryTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void countersBecomeRatesPerSecondAndADroppedCounterGivesNoRate() {
        ConsoleHistory history = new ConsoleHistory();
        history.add(0, 1000, Map.of("timer", new ConsoleReading().counter("fired", 100)));
        assertEquals(0, history.points("timer"), "the first reading has nothing to compare with");
        history.add(2 * SECOND, 3000, Map.of("timer", new ConsoleReading().counter("fired", 700)));
        history.add(3 * SECOND, 4000, Map.of("timer", new ConsoleReading().counter("fired", 50))); // a reset
        String json = history.json(4000, List.of());
        assertTrue(json.contains("\"fired\":[300.0,null]"), json);
    }

    @Test
    void latenessOfEachSecondIsTheDifferenceOfTheTotalsAndTheMinuteMergesThem() {
        Histogram total = new Histogram(3);
        ConsoleHistory history = new ConsoleHistory();
        history.add(0, 0, Map.of("timer", new ConsoleReading().lateness(total.copy())));
        for (int i = 0; i < 100; i++) {
            total.recordValue(1_000_000); // 1 ms
        }
        history.add(SECOND, 1000, Map.of("timer", new ConsoleReading().lateness(total.copy())));
        for (int i = 0; i < 100; i++) {
            total.recordValue(40_000_000); // 40 ms
        }
        history.add(2 * SECOND, 2000, Map.of("timer", new ConsoleReading().lateness(total.copy())));
        String json = history.json(2000, List.of());
        assertEquals(1.0, first("\"latenessMax\":\\[([0-9.]+),", json), 0.02, json);
        assertEquals(40.0, first("\"latenessMax\":\\[[0-9.]+,([0-9.]+)\\]", json), 0.5, json);
        assertEquals(200.0, first("\"latenessLastMinute\":\\{\"count\":(\\d+)", json), json);
        assertEquals(1.0, first("\"latenessLastMinute\":\\{[^}]*\"p50\":([0-9.]+)", json), 0.02, json);
        assertEquals(40.0, first("\"latenessLastMinute\":\\{[^}]*\"p99\":([0-9.]+)", json), 0.5, json);
    }

    @Test
    void aResetLatenessTotalCountsAsThatSecondsSamples() {
        Histogram before = new Histogram(3);
        before.recordValueWithCount(5_000_000, 1000);
        Histogram after = new Histogram(3);
        after.recordValueWithCount(2_000_000, 10);
        IntCountsHistogram second = ConsoleHistory.difference(after, before);
        assertEquals(10, second.getTotalCount());
        assertEquals(2000, second.getMaxValue(), 20); // microseconds
    }

    @Test
    void keepsTheLastSixtySecondsAndForgetsAServiceThatIsGone() {
        ConsoleHistory history = new ConsoleHistory();
        for (int i = 0; i <= 100; i++) {
            history.add(
                    i * SECOND,
                    i * 1000L,
                    Map.of(
                            "lock", new ConsoleReading().counter("acquisitions", i),
                            "timer", new ConsoleReading().gauge("pending", i)));
        }
        assertEquals(ConsoleHistory.SECONDS, history.points("lock"));
        history.add(101 * SECOND, 101_000, Map.of("timer", new ConsoleReading()));
        assertEquals(0, history.points("lock"));
        assertTrue(history.json(0, List.of()).contains("\"services\":{\"timer\":"));
    }

    @Test
    void jsonEscapesNamesAndCarriesSwapsAndTopRows() {
        ConsoleHistory history = new ConsoleHistory();
        history.add(0, 0, Map.of("lock", new ConsoleReading().engine("e\"<x>").topRow(Map.of("name", "a\\b"))));
        String json = history.json(5, List.of(new RecentSwaps.Swap(4, "timer", "none", "wheel", 1_500_000, 7)));
        assertTrue(json.contains("\"engine\":\"e\\\"\\u003cx\\u003e\""), json);
        assertTrue(json.contains("\"top\":[{\"name\":\"a\\\\b\"}]"), json);
        assertTrue(
                json.contains(
                        "\"swaps\":[{\"time\":4,\"service\":\"timer\",\"from\":\"none\",\"to\":\"wheel\",\"pauseMillis\":1.5,\"moved\":7}]"),
                json);
    }

    private static double first(String regex, String text) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertTrue(m.find(), regex + " in " + text);
        return Double.parseDouble(m.group(1));
    }
}
