package org.rouse.api.internal.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;
import org.rouse.config.ConfigCheck;

class StrategyPolicyTest {

    @Test
    void globsMatchWholeNamesAndTheFirstMatchWins() {
        ConfigCheck check = new ConfigCheck("test");
        StrategyPolicy policy =
                StrategyPolicy.parse(" jdk ", new String[] {"keyspace*=fair", "a.b?=spin-yield", "*=x"}, null, check);
        assertNotNull(policy);
        assertEquals("fair", policy.strategyFor("keyspace"));
        assertEquals("fair", policy.strategyFor("keyspace-users"));
        assertEquals("spin-yield", policy.strategyFor("a.bc"));
        assertEquals("x", policy.strategyFor("aXbc"), "'.' is literal, not a regex wildcard");
        assertEquals(Set.of("jdk", "fair", "spin-yield", "x"), policy.strategies());
        assertEquals(
                "jdk",
                StrategyPolicy.parse("jdk", null, null, new ConfigCheck("t")).strategyFor("any"));
    }

    @Test
    void everyProblemIsReportedAtOnce() {
        ConfigCheck check = new ConfigCheck("org.rouse.lock");
        assertNull(StrategyPolicy.parse(
                "adaptive", new String[] {"nope", "k=fair", "z=bad name"}, Set.of("jdk", "fair"), check));
        assertEquals(3, check.problems().size(), check.problems().toString());
        assertTrue(check.rejection().contains("adaptive"));
        assertTrue(check.rejection().contains("nope"));
    }
}
