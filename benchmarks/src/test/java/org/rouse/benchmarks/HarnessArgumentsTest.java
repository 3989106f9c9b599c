package org.rouse.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class HarnessArgumentsTest {

    @Test
    void defaultsToFullRunsIntoTheResultsFolder() {
        HarnessArguments args = HarnessArguments.parse(List.of("wakeup-floor"));

        assertEquals(List.of("wakeup-floor"), args.scenarios());
        assertEquals(Path.of("benchmarks/results"), args.outputDirectory());
        assertFalse(args.inProcess(), "scenarios run in a pre-touched child JVM unless asked");
        assertEquals(
                "java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness wakeup-floor",
                args.reproduce("wakeup-floor"));
    }

    @Test
    void theReproducingCommandKeepsQuickAndOut() {
        HarnessArguments args = HarnessArguments.parse(List.of("--quick", "a", "b", "--out", "/tmp/x"));

        assertEquals(List.of("a", "b"), args.scenarios());
        assertTrue(args.quick());
        assertEquals(
                "java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness b --quick --out /tmp/x",
                args.reproduce("b"));
    }

    @Test
    void inProcessKeepsTheRunInThisJvm() {
        assertTrue(HarnessArguments.parse(List.of("a", "--in-process")).inProcess());
    }

    @Test
    void rejectsWhatMakesNoSense() {
        assertThrows(IllegalArgumentException.class, () -> HarnessArguments.parse(List.of()));
        assertThrows(IllegalArgumentException.class, () -> HarnessArguments.parse(List.of("a", "--out")));
        assertThrows(IllegalArgumentException.class, () -> HarnessArguments.parse(List.of("--fast", "a")));
    }

    @Test
    void aVariantRunsAloneForTheRoundsAsked() {
        HarnessArguments args = HarnessArguments.parse(
                List.of("lock-contention", "--variant", "rouse adaptive, no work", "--rounds", "20"));

        assertEquals("rouse adaptive, no work", args.variant());
        assertEquals(20, args.rounds());
        assertEquals(0, HarnessArguments.parse(List.of("a", "--variant", "v")).rounds(), "the scenario's own plan");
    }

    @Test
    void roundsApplyToSideBySideRunsAndAreInTheReproducingCommand() {
        HarnessArguments args = HarnessArguments.parse(List.of("lock-facade-16", "--rounds", "30"));

        assertEquals(30, args.rounds());
        assertEquals(
                "java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness lock-facade-16 --rounds 30",
                args.reproduce("lock-facade-16"));
    }

    @Test
    void roundsNeedAReasonableNumber() {
        assertThrows(IllegalArgumentException.class, () -> HarnessArguments.parse(List.of("a", "--rounds", "-3")));
        IllegalArgumentException zero = assertThrows(
                IllegalArgumentException.class,
                () -> HarnessArguments.parse(List.of("a", "--variant", "v", "--rounds", "0")));
        assertTrue(zero.getMessage().contains("1..100000"), zero.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> HarnessArguments.parse(List.of("a", "--variant", "v", "--rounds", "many")));
        assertThrows(IllegalArgumentException.class, () -> HarnessArguments.parse(List.of("a", "--variant")));
    }

    @Test
    void forksRepeatTheRunInFreshJvmsEachReportingToItsOwnFolder() {
        HarnessArguments args =
                HarnessArguments.parse(List.of("lock-facade-16", "--rounds", "12", "--forks", "8", "--out", "/tmp/f"));

        assertEquals(8, args.forks());
        assertEquals(
                "java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.Harness lock-facade-16 --rounds 12"
                        + " --forks 8 --out /tmp/f",
                args.reproduce("lock-facade-16"));
        assertEquals(
                List.of("lock-facade-16", "--rounds", "12", "--out", "/tmp/f/fork-3"),
                args.forkArguments(3),
                "a fork runs the same run once, without forking again");
        assertEquals(1, HarnessArguments.parse(List.of("a")).forks(), "one run unless asked");
    }

    @Test
    void forksNeedAReasonableNumberAndASideBySideRun() {
        for (String forks : List.of("1", "0", "101", "some")) {
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class, () -> HarnessArguments.parse(List.of("a", "--forks", forks)));
            assertTrue(e.getMessage().contains("2..100") && e.getMessage().contains(forks), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> HarnessArguments.parse(List.of("a", "--forks")));
        IllegalArgumentException alone = assertThrows(
                IllegalArgumentException.class,
                () -> HarnessArguments.parse(List.of("a", "--forks", "3", "--variant", "v")));
        assertTrue(alone.getMessage().contains("--variant"), alone.getMessage());
        IllegalArgumentException here = assertThrows(
                IllegalArgumentException.class,
                () -> HarnessArguments.parse(List.of("a", "--in-process", "--forks", "3")));
        assertTrue(here.getMessage().contains("--in-process"), here.getMessage());
    }
}
