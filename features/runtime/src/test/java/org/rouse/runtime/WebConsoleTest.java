package org.rouse.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Web Console's start rule and the runtime's web flags. */
class WebConsoleTest {

    private static final WebConsole.Credentials DEFAULT = new WebConsole.Credentials("admin", "admin", "the default");
    private static final WebConsole.Credentials OWN = new WebConsole.Credentials("ops", "n0t-admin", "configuration");

    @Test
    void loopbackStartsWithAnyPassword() {
        assertTrue(WebConsole.decide(true, "127.0.0.1", 8181, DEFAULT).start());
        assertTrue(WebConsole.decide(true, "::1", 8181, DEFAULT).start());
        assertTrue(WebConsole.decide(true, "localhost", 8181, DEFAULT).start());
    }

    @Test
    void aNonLoopbackAddressNeedsAPasswordOtherThanAdmin() {
        WebConsole.Decision refused = WebConsole.decide(true, "0.0.0.0", 8181, DEFAULT);
        assertFalse(refused.start());
        assertTrue(refused.line().startsWith("[rouse] web console NOT started: 0.0.0.0:8181 is not a loopback"));
        assertFalse(
                WebConsole.decide(
                                true,
                                "0.0.0.0",
                                8181,
                                new WebConsole.Credentials(
                                        "ops",
                                        "{sha-256}jGl25bVBBBW96Qi9Te4V37Fnqchz/Eu4qB9vKrRIqRg=",
                                        "configuration"))
                        .start(),
                "admin hashed as the Web Console stores it");
        assertFalse(WebConsole.decide(true, "0.0.0.0", 8181, new WebConsole.Credentials("ops", "", "configuration"))
                .start());
        WebConsole.Decision started = WebConsole.decide(true, "0.0.0.0", 8181, OWN);
        assertTrue(started.start());
        assertFalse(started.line().contains("n0t-admin"), "never the password: " + started.line());
    }

    @Test
    void noWebIsOff() {
        assertFalse(WebConsole.decide(false, "127.0.0.1", 8181, OWN).start());
    }

    @Test
    void theFlagsSetHostPortAndOff() {
        Main.LaunchOptions defaults = Main.LaunchOptions.parse(List.of(), Path.of("/nonexistent"));
        assertEquals("127.0.0.1", defaults.webHost());
        assertEquals(8181, defaults.webPort());
        assertTrue(defaults.web());
        Main.LaunchOptions set = Main.LaunchOptions.parse(
                List.of("--web-host=0.0.0.0", "--web-port=9090", "--no-web"), Path.of("/nonexistent"));
        assertEquals("0.0.0.0", set.webHost());
        assertEquals(9090, set.webPort());
        assertFalse(set.web());
        IllegalArgumentException bad = assertThrows(
                IllegalArgumentException.class,
                () -> Main.LaunchOptions.parse(List.of("--web-port=http"), Path.of("/nonexistent")));
        assertTrue(bad.getMessage().contains("'http'"), bad.getMessage());
    }
}
