package org.rouse.runtime;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;

/**
 * The {@code --check} verdict: every {@code org.rouse.*} bundle ACTIVE and every DS component of those bundles
 * ACTIVE (a delayed one at least SATISFIED: SCR activates it when a consumer first gets its service; one that requires
 * a configuration nobody gave, such as the cluster bundle's without {@code org.rouse.cluster}, waiting for it, which
 * the report says), waited for up to {@link #SETTLE_NANOS} after the framework reached its final start level.
 *
 * <p>Implementation notes: states are re-read on every framework, bundle or service event and at least every
 * {@link #RECHECK_NANOS} (components without a service change state silently); the first all-good reading wins,
 * otherwise the last reading at the deadline is the verdict. Fragments count as good when RESOLVED.
 */
final class Check {

    static final String ROUSE_PREFIX = "org.rouse.";
    private static final long SETTLE_NANOS = TimeUnit.SECONDS.toNanos(20);
    private static final long RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    /** One reading of the states, with the reasons it is not all good. */
    record Reading(List<ComponentStates.Component> components, List<String> problems) {}

    private Check() {}

    /**
     * Waits for the Rouse bundles and components to settle, prints the states, and says whether all are good.
     *
     * @param earlierProblems what went wrong before the check (e.g. configuration files not loaded); fails the check
     */
    static boolean run(BundleContext ctx, StateChanges changes, List<String> earlierProblems, PrintStream out)
            throws InterruptedException {
        return run(ctx, changes, earlierProblems, Set.of(), out);
    }

    /**
     * As {@link #run(BundleContext, StateChanges, List, PrintStream)}, and also requires every other bundle to be
     * ACTIVE (RESOLVED for a fragment) except those named in {@code off}, which the launcher left stopped on purpose.
     */
    static boolean run(
            BundleContext ctx, StateChanges changes, List<String> earlierProblems, Set<String> off, PrintStream out)
            throws InterruptedException {
        long deadline = System.nanoTime() + SETTLE_NANOS;
        Reading reading;
        while (true) {
            long seen = changes.version();
            reading = read(ctx, off);
            long remaining = deadline - System.nanoTime();
            if (reading.problems().isEmpty() || remaining <= 0) {
                break;
            }
            changes.awaitChangeAfter(seen, Math.min(remaining, RECHECK_NANOS));
        }
        List<String> problems = new ArrayList<>(earlierProblems);
        problems.addAll(reading.problems());
        print(ctx, new Reading(reading.components(), problems), out);
        return problems.isEmpty();
    }

    static Reading read(BundleContext ctx) {
        return read(ctx, null);
    }

    /** {@code off}: null checks only the Rouse bundles; otherwise every bundle but these must be ACTIVE too. */
    static Reading read(BundleContext ctx, Set<String> off) {
        List<String> problems = new ArrayList<>();
        if (off != null) {
            for (Bundle bundle : ctx.getBundles()) {
                String name = bundle.getSymbolicName();
                if (bundle.getBundleId() != 0
                        && (name == null || !name.startsWith(ROUSE_PREFIX))
                        && !off.contains(name)
                        && !isGood(bundle)) {
                    problems.add("bundle " + name + " is " + stateName(bundle));
                }
            }
        }
        Bundle[] rouse = Arrays.stream(ctx.getBundles())
                .filter(b -> b.getSymbolicName() != null && b.getSymbolicName().startsWith(ROUSE_PREFIX))
                .toArray(Bundle[]::new);
        if (rouse.length == 0) {
            problems.add("no " + ROUSE_PREFIX + "* bundle is installed");
        }
        for (Bundle bundle : rouse) {
            if (!isGood(bundle)) {
                problems.add("bundle " + bundle.getSymbolicName() + " is " + stateName(bundle));
            }
        }
        List<ComponentStates.Component> components = List.of();
        try {
            List<ComponentStates.Component> read = ComponentStates.read(ctx, rouse);
            if (read == null) {
                problems.add("no ServiceComponentRuntime (Felix SCR) is registered");
            } else {
                components = read;
            }
        } catch (IllegalStateException e) {
            problems.add("cannot read component states: " + e.getMessage());
        }
        for (ComponentStates.Component component : components) {
            if (!component.ok()) {
                problems.add("component " + component.name() + " of " + component.bundle() + " is " + component.state()
                        + (component.why().isEmpty() ? "" : " (" + component.why() + ")"));
            }
        }
        return new Reading(components, problems);
    }

    /**
     * Prints the report in one write: the log lines other threads write to stderr at the same time must not split
     * a state line when both streams go to one file ({@code --check >out 2>&1}).
     */
    private static void print(BundleContext ctx, Reading reading, PrintStream out) {
        StringBuilder report = new StringBuilder();
        for (Bundle bundle : ctx.getBundles()) {
            report.append(String.format(
                    "[rouse] bundle    %-45s %-22s %s%n",
                    bundle.getSymbolicName(), bundle.getVersion(), stateName(bundle)));
        }
        for (ComponentStates.Component component : reading.components()) {
            report.append(String.format(
                    "[rouse] component %-45s %-60s %s%n", component.bundle(), component.name(), component.describe()));
        }
        if (reading.problems().isEmpty()) {
            List<String> waiting = reading.components().stream()
                    .map(ComponentStates.Component::waitingFor)
                    .filter(pid -> pid != null)
                    .toList();
            report.append(String.format(
                    "[rouse] check passed: all %s* bundles and their %d component(s) are ACTIVE (delayed ones"
                            + " SATISFIED%s)%n",
                    ROUSE_PREFIX,
                    reading.components().size(),
                    waiting.isEmpty()
                            ? ""
                            : "; " + waiting.size() + " waiting for configuration " + String.join(", ", waiting)));
        } else {
            report.append(String.format("[rouse] check FAILED:%n"));
            reading.problems().forEach(p -> report.append(String.format("[rouse]   %s%n", p)));
        }
        out.print(report);
        out.flush();
    }

    private static boolean isGood(Bundle bundle) {
        return BundleInstaller.isFragment(bundle)
                ? bundle.getState() == Bundle.RESOLVED
                : bundle.getState() == Bundle.ACTIVE;
    }

    static String stateName(Bundle bundle) {
        return switch (bundle.getState()) {
            case Bundle.ACTIVE -> "ACTIVE";
            case Bundle.RESOLVED -> "RESOLVED";
            case Bundle.INSTALLED -> "INSTALLED";
            case Bundle.STARTING -> "STARTING";
            case Bundle.STOPPING -> "STOPPING";
            default -> "UNINSTALLED";
        };
    }
}
