package org.rouse.itests;

import static org.awaitility.Awaitility.await;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Arrays;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.List;
import javax.inject.Inject;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.framework.ServiceReference;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.rouse.selector.SelectorService;

/**
 * The RESP example server in the real runtime (selector, lock and timer services), driven over real sockets by a
 * RESP2 client.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class RespServerIT extends RouseTestSupport {

    static final String PID = "org.rouse.examples.resp";

    @Inject
    ConfigurationAdmin configAdmin;

    @Inject
    SelectorService selector; // only to wait for the selector front

    /** Moves the server to a free port (with the given extra properties) and waits until it answers there. */
    static int listenOnFreePort(ConfigurationAdmin configAdmin, Object... properties) throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        Dictionary<String, Object> config = new Hashtable<>();
        config.put("port", port);
        for (int i = 0; i < properties.length; i += 2) {
            config.put((String) properties[i], properties[i + 1]);
        }
        Configuration configuration = configAdmin.getConfiguration(PID, "?");
        configuration.update(config);
        int chosen = port;
        await().atMost(Duration.ofSeconds(30))
                .ignoreException(ConnectException.class)
                .until(() -> {
                    try (RespClient client = new RespClient(chosen)) {
                        return "PONG".equals(client.call("PING"));
                    }
                });
        return port;
    }

    @Test
    public void theRuntimeServesTheRedisProtocol() throws Exception {
        int port = listenOnFreePort(configAdmin);
        try (RespClient client = new RespClient(port)) {
            assertEquals("PONG", client.call("PING"));
            assertEquals("hello world", client.call("ECHO", "hello world"));
            assertEquals("OK", client.call("SET", "it:key", "value"));
            assertEquals("value", client.call("GET", "it:key"));
            assertEquals(1L, client.call("INCR", "it:n"));
            assertEquals(2L, client.call("INCR", "it:n"));
            assertEquals(Arrays.asList("value", "2", null), client.call("MGET", "it:key", "it:n", "it:none"));
            assertEquals(2L, client.call("EXISTS", "it:key", "it:n", "it:none"));
            assertEquals(2L, client.call("DEL", "it:key", "it:n"));
            assertEquals(null, client.call("GET", "it:key"));
            assertEquals(new RespClient.Error("ERR value is not an integer or out of range"), incrOfText(client));
            assertEquals(new RespClient.Error("ERR wrong number of arguments for 'get' command"), client.call("GET"));
        }
    }

    private static Object incrOfText(RespClient client) throws IOException {
        client.call("SET", "it:text", "abc");
        return client.call("INCR", "it:text");
    }

    @Test
    public void theGogoCommandPrintsTheEngineAndTheServersView() throws Exception {
        int port = listenOnFreePort(configAdmin);
        try (RespClient client = new RespClient(port)) {
            assertEquals("PONG", client.call("PING"));
            ServiceReference<?>[] commands = context.getAllServiceReferences(
                    null, "(&(osgi.command.scope=rouse)(osgi.command.function=selector))");
            assertTrue("rouse:selector is registered", commands != null && commands.length == 1);
            Object command = context.getService(commands[0]);
            try {
                String report = (String) command.getClass().getMethod("report").invoke(command);
                assertTrue(report, report.startsWith("engine nio-"));
                assertTrue(report, report.contains("wakeups.written"));
                assertTrue(report, report.contains("view org.rouse.examples.resp["));
            } finally {
                context.ungetService(commands[0]);
            }
        }
    }

    @Test
    public void malformedInputClosesOnlyThatConnection() throws Exception {
        int port = listenOnFreePort(configAdmin);
        try (RespClient bystander = new RespClient(port)) {
            assertEquals("OK", bystander.call("SET", "it:b", "1"));
            for (String bad : List.of("*1\r\n+PING\r\n", "*2\r\n$3\r\nGET\r\n$99999999999\r\n", "*x\r\n")) {
                try (RespClient client = new RespClient(port)) {
                    client.sendRaw(bad);
                    Object reply = client.reply();
                    assertTrue(
                            String.valueOf(reply),
                            reply instanceof RespClient.Error
                                    && ((RespClient.Error) reply).message().startsWith("ERR Protocol error"));
                    assertTrue(bad, client.closedByServer());
                }
            }
            assertEquals("1", bystander.call("GET", "it:b"));
            assertEquals(Bundle.ACTIVE, bundle(PID).getState());
        }
    }

    @Test
    public void idleConnectionsAreClosedByTheTimerService() throws Exception {
        int port = listenOnFreePort(configAdmin, "idle.timeout.seconds", 1);
        try (RespClient idle = new RespClient(port)) {
            long start = System.nanoTime();
            assertEquals("PONG", idle.call("PING"));
            assertTrue("closed after the idle timeout", idle.closedByServer());
            long waitedMs = (System.nanoTime() - start) / 1_000_000;
            assertTrue("waited " + waitedMs + " ms for a 1 s idle timeout", waitedMs >= 900 && waitedMs < 20_000);
        } finally {
            listenOnFreePort(configAdmin); // back to the default idle timeout
        }
    }

    @Test
    public void stoppingTheServerBundleClosesItsConnectionsAndListener() throws Exception {
        int port = listenOnFreePort(configAdmin);
        Bundle resp = bundle(PID);
        try (RespClient client = new RespClient(port)) {
            assertEquals("PONG", client.call("PING"));
            resp.stop();
            assertTrue("connection closed with the bundle", client.closedByServer());
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                try (RespClient ignored = new RespClient(port)) {
                    return false;
                } catch (ConnectException refused) {
                    return true;
                }
            });
        } finally {
            resp.start();
        }
        await().atMost(Duration.ofSeconds(30))
                .ignoreException(ConnectException.class)
                .until(() -> {
                    try (RespClient client = new RespClient(port)) {
                        return "PONG".equals(client.call("PING"));
                    }
                });
    }
}
