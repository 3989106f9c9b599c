package org.rouse.cluster.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.rouse.config.ConfigCheck;

class ClusterSettingsTest {

    @Test
    void validConfigurationMatchesItsPatternsOnly() {
        ConfigCheck check = new ConfigCheck(ClusterSettings.PID);
        ClusterSettings settings = ClusterSettings.of(
                check, "zk1:2181,zk2:2181/apps", 15_000, 10_000, "rouse", "", new String[] {"cluster.*", "job-?"});
        assertTrue(check.passed(), check.problems().toString());
        assertTrue(settings.enabled());
        assertTrue(settings.isClusterLock("cluster.billing"));
        assertTrue(settings.isClusterLock("job-1"));
        assertFalse(settings.isClusterLock("clusterXbilling"), "the dot is literal");
        assertFalse(settings.isClusterLock("keyspace"));
    }

    @Test
    void everyBadValueIsReportedAndThePasswordNever() {
        ConfigCheck check = new ConfigCheck(ClusterSettings.PID);
        ClusterSettings.of(check, "zk1:2181, bad host", 10, 5, "a/b", "nopassword-secret", new String[] {"c.*"});
        assertEquals(5, check.problems().size(), check.problems().toString());
        assertFalse(check.rejection().contains("nopassword-secret"), check.rejection());
    }

    @Test
    void noConnectStringMeansOff() {
        ConfigCheck check = new ConfigCheck(ClusterSettings.PID);
        ClusterSettings settings = ClusterSettings.of(check, " ", 15_000, 10_000, "rouse", "", new String[0]);
        assertTrue(check.passed());
        assertFalse(settings.enabled());
        assertFalse(settings.isClusterLock("cluster.x"), "no pattern matches nothing");
    }

    @Test
    void credentialsNeverAppearInTheLoggedForm() {
        ConfigCheck check = new ConfigCheck(ClusterSettings.PID);
        ClusterSettings settings = ClusterSettings.of(
                check, "admin:hunter2@zk1:2181", 15_000, 10_000, "rouse", "rouse:s3cret", new String[] {"x"});
        String shown = settings.toString();
        assertFalse(shown.contains("s3cret"), shown);
        assertFalse(shown.contains("hunter2"), shown);
        assertTrue(shown.contains("rouse:***"), shown);
    }
}
