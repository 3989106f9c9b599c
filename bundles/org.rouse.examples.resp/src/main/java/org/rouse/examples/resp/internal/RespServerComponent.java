package org.rouse.examples.resp.internal;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.Designate;
import org.rouse.config.ConfigCheck;
import org.rouse.lock.LockService;
import org.rouse.selector.Dispatch;
import org.rouse.selector.SelectorService;
import org.rouse.timer.Timer;
import org.rouse.timer.TimerOwner;
import org.rouse.timer.TimerService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the example RESP2 server: connections on the selector service, the key space guarded by the lock service's
 * stripes {@value #STRIPES_NAME}, idle timeouts on the timer service. Try it with {@code redis-cli -p 6380}.
 *
 * <p>A configuration change that moves the address or port closes the listener and its connections and listens
 * anew; other changes apply to connections accepted afterwards. The key space lives as long as the component.
 */
@Component(immediate = true, configurationPid = RespServerComponent.PID)
@Designate(ocd = RespServerConfig.class)
public final class RespServerComponent {

    static final String PID = "org.rouse.examples.resp";

    /** The lock stripe set guarding the key space; the lock front's strategy patterns match this name. */
    static final String STRIPES_NAME = "keyspace";

    static final int STRIPES = 64;

    private static final List<String> DISPATCH_NAMES =
            Arrays.stream(Dispatch.values()).map(Dispatch::name).toList();

    /** What the configuration's defaults say; used when the first configuration is rejected. */
    static final RespServer.Settings DEFAULTS = new RespServer.Settings(
            new InetSocketAddress("127.0.0.1", 6380),
            new RespParser.Limits(65_536, 1024, 1_048_576),
            Duration.ofSeconds(300),
            10_000,
            1024,
            Dispatch.INLINE);

    private static final Logger LOG = LoggerFactory.getLogger(RespServerComponent.class);

    @Reference
    private SelectorService selector;

    @Reference
    private LockService locks;

    @Reference
    private TimerService timerService;

    /** The fields below are guarded by this: DS serializes activation, modification and deactivation. */
    private KeySpace keys;

    private TimerOwner idleOwner;
    private RespServer server;
    private RespServer.Settings settings;

    @Activate
    @Modified
    synchronized void configure(RespServerConfig config) {
        RespServer.Settings next = validate(config);
        if (next == null) {
            if (settings != null) {
                return;
            }
            next = DEFAULTS;
        }
        if (keys == null) {
            keys = new KeySpace(locks.stripes(STRIPES_NAME, STRIPES));
            idleOwner = timerService.owner("resp-idle");
        }
        if (next.equals(settings)) {
            return;
        }
        settings = next;
        stopServer();
        TimerOwner owner = idleOwner;
        IdleTimers timers = (delay, task) -> {
            Timer timer = owner.schedule(delay, event -> task.run());
            return timer::cancel;
        };
        try {
            server = new RespServer(selector, keys, timers, next);
            LOG.info(
                    "RESP server listening on {} (try: redis-cli -p {})",
                    server.address(),
                    server.address().getPort());
        } catch (IOException | RuntimeException e) {
            LOG.error("RESP server cannot listen on {}: {}", next.address(), e.toString());
        }
    }

    /** The validated settings, or null after logging the rejection. */
    private static RespServer.Settings validate(RespServerConfig config) {
        ConfigCheck check = new ConfigCheck(PID);
        long port = check.inRange("port", config.port(), 0, 65_535);
        long inline = check.inRange("max.inline.length", config.max_inline_length(), 16, 1 << 20);
        long bulk = check.inRange("max.bulk.length", config.max_bulk_length(), 1, 64 << 20);
        long arguments = check.inRange("max.arguments", config.max_arguments(), 1, 1_000_000);
        long idle = check.inRange("idle.timeout.seconds", config.idle_timeout_seconds(), 0, 86_400);
        long connections = check.inRange("max.connections", config.max_connections(), 1, 1_000_000);
        long backlog = check.inRange("listen.backlog", config.listen_backlog(), 1, 65_535);
        String dispatch = check.oneOf("connection.dispatch", config.connection_dispatch(), DISPATCH_NAMES);
        InetAddress address = null;
        try {
            address = InetAddress.getByName(config.bind_address());
        } catch (UnknownHostException | RuntimeException e) {
            check.problem("bind.address", config.bind_address(), "an IP address or resolvable host name");
        }
        if (!check.passed()) {
            LOG.error(check.rejection());
            return null;
        }
        return new RespServer.Settings(
                new InetSocketAddress(address, (int) port),
                new RespParser.Limits((int) inline, (int) arguments, (int) bulk),
                Duration.ofSeconds(idle),
                (int) connections,
                (int) backlog,
                Dispatch.valueOf(dispatch));
    }

    private void stopServer() {
        if (server != null) {
            server.close();
            server = null;
        }
    }

    @Deactivate
    synchronized void deactivate() {
        stopServer();
        if (idleOwner != null) {
            idleOwner.close();
        }
        LOG.info("RESP server stopped");
    }
}
