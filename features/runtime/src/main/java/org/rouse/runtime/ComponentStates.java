package org.rouse.runtime;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;

/**
 * Reads the Declarative Services components of some bundles, with their states, from the
 * {@code ServiceComponentRuntime} service.
 *
 * <p>Implementation notes: everything goes through {@link ServiceReflection} on the DTOs
 * ({@code ComponentDescriptionDTO}, {@code ComponentConfigurationDTO}, {@code UnsatisfiedReferenceDTO}); the state
 * numbers are the constants of {@code ComponentConfigurationDTO}, copied here because the launcher cannot link to that
 * class. A description with no configuration is reported as {@code DISABLED}, {@code FACTORY} (a component factory has
 * configurations only for the instances it made) or {@code NO_CONFIGURATION}.
 */
final class ComponentStates {

    static final String SCR = "org.osgi.service.component.runtime.ServiceComponentRuntime";

    /**
     * One line of the report: a component configuration, or a description without one.
     *
     * @param delayed whether the component is delayed (a service, not {@code immediate}): SCR activates it only when
     *     a consumer first gets its service
     * @param waitingFor the configuration PIDs the component requires and has not got, joined by ", " (its
     *     description says {@code configurationPolicy = require} and SCR reports no configuration for it), else
     *     {@code null}
     */
    record Component(
            String bundle, String name, long id, String state, String why, boolean delayed, String waitingFor) {

        Component(String bundle, String name, long id, String state, String why, boolean delayed) {
            this(bundle, name, id, state, why, delayed, null);
        }

        /**
         * ACTIVE is the goal; a component factory, a component its author disabled by default, a delayed component
         * that is SATISFIED (its service registered, no consumer yet), or a component that requires a configuration
         * nobody has given (an optional feature left off, such as the cluster bundle without
         * {@code org.rouse.cluster}) is where it should be as well.
         */
        boolean ok() {
            return state.equals("ACTIVE")
                    || state.equals("FACTORY")
                    || state.equals("DISABLED_BY_DEFAULT")
                    || (delayed && state.equals("SATISFIED"))
                    || waitingFor != null;
        }

        /** The state as the check prints it: with what a good but not ACTIVE component waits for. */
        String describe() {
            if (waitingFor != null) {
                return state + " (waiting for configuration " + waitingFor + ")";
            }
            if (delayed && state.equals("SATISFIED")) {
                return "SATISFIED (delayed: activated by its first user)";
            }
            return state;
        }
    }

    private ComponentStates() {}

    /**
     * The components declared by {@code bundles}, or {@code null} while no ServiceComponentRuntime is registered.
     */
    static List<Component> read(BundleContext ctx, Bundle[] bundles) {
        return ServiceReflection.withService(ctx, SCR, scr -> {
            List<Component> result = new ArrayList<>();
            for (Object description : (Collection<?>) scr.call("getComponentDescriptionDTOs", (Object) bundles)) {
                String bundle = (String)
                        ServiceReflection.field(ServiceReflection.field(description, "bundle"), "symbolicName");
                String name = (String) ServiceReflection.field(description, "name");
                Collection<?> configurations = (Collection<?>) scr.call("getComponentConfigurationDTOs", description);
                Object[] services = (Object[]) ServiceReflection.field(description, "serviceInterfaces");
                boolean delayed = !Boolean.TRUE.equals(ServiceReflection.field(description, "immediate"))
                        && services != null
                        && services.length > 0;
                if (configurations.isEmpty()) {
                    String state = withoutConfiguration(scr, description);
                    result.add(new Component(
                            bundle,
                            name,
                            -1,
                            state,
                            "",
                            delayed,
                            state.equals("NO_CONFIGURATION") ? requiredPids(description) : null));
                }
                for (Object configuration : configurations) {
                    int state = ((Number) ServiceReflection.field(configuration, "state")).intValue();
                    long id = ((Number) ServiceReflection.field(configuration, "id")).longValue();
                    result.add(new Component(
                            bundle,
                            name,
                            id,
                            stateName(state),
                            why(configuration),
                            delayed,
                            state == UNSATISFIED_CONFIGURATION ? requiredPids(description) : null));
                }
            }
            return result;
        });
    }

    /**
     * The configuration PIDs of a description whose {@code configurationPolicy} is {@code require}, joined by
     * {@code ", "}; {@code null} for any other policy (such a component is not waiting for a configuration).
     */
    private static String requiredPids(Object description) {
        if (!"require".equals(ServiceReflection.field(description, "configurationPolicy"))) {
            return null;
        }
        Object[] pids = (Object[]) ServiceReflection.field(description, "configurationPid");
        if (pids == null || pids.length == 0) {
            return String.valueOf(ServiceReflection.field(description, "name"));
        }
        List<String> names = new ArrayList<>();
        for (Object pid : pids) {
            names.add(String.valueOf(pid));
        }
        return String.join(", ", names);
    }

    private static String withoutConfiguration(ServiceReflection scr, Object description) {
        boolean enabled = (Boolean) scr.call("isComponentEnabled", description);
        if (!enabled) {
            return Boolean.TRUE.equals(ServiceReflection.field(description, "defaultEnabled"))
                    ? "DISABLED"
                    : "DISABLED_BY_DEFAULT";
        }
        return ServiceReflection.field(description, "factory") != null ? "FACTORY" : "NO_CONFIGURATION";
    }

    private static String why(Object configuration) {
        List<String> reasons = new ArrayList<>();
        Object[] unsatisfied = (Object[]) ServiceReflection.field(configuration, "unsatisfiedReferences");
        for (Object reference : unsatisfied == null ? new Object[0] : unsatisfied) {
            Object target = ServiceReflection.field(reference, "target");
            reasons.add("unsatisfied reference '" + ServiceReflection.field(reference, "name") + "'"
                    + (target == null ? "" : " target " + target));
        }
        Object failure = ServiceReflection.field(configuration, "failure"); // DS 1.5
        if (failure != null) {
            reasons.add("activation failed: "
                    + failure.toString().lines().findFirst().orElse(""));
        }
        return String.join("; ", reasons);
    }

    /** {@code ComponentConfigurationDTO.UNSATISFIED_CONFIGURATION}: a required configuration is missing (DS 1.4). */
    static final int UNSATISFIED_CONFIGURATION = 1;

    static String stateName(int state) {
        return switch (state) {
            case 1 -> "UNSATISFIED_CONFIGURATION";
            case 2 -> "UNSATISFIED_REFERENCE";
            case 4 -> "SATISFIED";
            case 8 -> "ACTIVE";
            case 16 -> "FAILED_ACTIVATION";
            default -> "STATE_" + state;
        };
    }
}
