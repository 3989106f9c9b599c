package org.rouse.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** What {@code --check} counts as good, and how it prints a component that is good without being ACTIVE. */
class ComponentStatesTest {

    @Test
    void aComponentWaitingForItsRequiredConfigurationIsGoodAndSaysWhatItWaitsFor() {
        ComponentStates.Component waiting = new ComponentStates.Component(
                "org.rouse.cluster", "ClusterComponent", -1, "NO_CONFIGURATION", "", false, "org.rouse.cluster");

        assertTrue(waiting.ok());
        assertEquals("NO_CONFIGURATION (waiting for configuration org.rouse.cluster)", waiting.describe());
    }

    @Test
    void aComponentWithoutConfigurationThatRequiresNoneIsNotGood() {
        ComponentStates.Component missing =
                new ComponentStates.Component("org.rouse.x", "X", -1, "NO_CONFIGURATION", "", false);
        ComponentStates.Component unsatisfied =
                new ComponentStates.Component("org.rouse.x", "X", 3, "UNSATISFIED_REFERENCE", "", true);

        assertFalse(missing.ok());
        assertFalse(unsatisfied.ok());
        assertEquals("UNSATISFIED_REFERENCE", unsatisfied.describe());
    }

    @Test
    void aDelayedSatisfiedComponentIsGood() {
        ComponentStates.Component delayed =
                new ComponentStates.Component("org.rouse.api", "TimerHealthCheck", 7, "SATISFIED", "", true);

        assertTrue(delayed.ok());
        assertEquals("SATISFIED (delayed: activated by its first user)", delayed.describe());
    }
}
