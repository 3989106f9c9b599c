package org.rouse.cluster.internal;

import java.util.Hashtable;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.metatype.annotations.Designate;
import org.rouse.config.ConfigCheck;
import org.rouse.jobs.spi.JobPlacement;
import org.rouse.lock.spi.ClusterLockProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster bundle's DS component: active only with a configuration of PID {@value ClusterSettings#PID}; with a
 * valid one that has a {@code connect.string}, it joins the ZooKeeper ensemble and registers a
 * {@link ClusterLockProvider}, which the lock front consults for names matching {@code lock.patterns}, and a
 * {@link JobPlacement}, which the jobs bundle consults for jobs with {@code scheduler.runOn}.
 *
 * <pre>
 * # etc/org.rouse.cluster.cfg (Karaf) or conf/org.rouse.cluster.cfg (the Rouse runtime)
 * connect.string = zk1:2181,zk2:2181,zk3:2181
 * acl.digest = rouse:secret
 * lock.patterns = cluster.*
 * </pre>
 *
 * <p>A rejected configuration is logged at ERROR (the password never shown) and the last good one stays; a changed
 * good one leaves the cluster (every hold becomes invalid, the provider is unregistered) and joins it again.
 */
@Component(
        immediate = true,
        service = {},
        configurationPid = ClusterSettings.PID,
        configurationPolicy = ConfigurationPolicy.REQUIRE)
@Designate(ocd = ClusterConfig.class)
public final class ClusterComponent {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterComponent.class);

    /** The bundle context; written in activate (DS serializes activate, modified and deactivate). */
    private BundleContext context;
    /** The node in use with its registrations, or null; written in activate/modified/deactivate. */
    private Joined joined;

    /** A running node and the services registered for it. */
    private record Joined(
            ClusterNode node,
            ServiceRegistration<ClusterLockProvider> locks,
            ServiceRegistration<JobPlacement> jobs,
            ServiceRegistration<ClusterCommands> commands,
            ClusterCommands shell) {

        /** Unregisters the services, ends the shell's hold threads, then leaves the cluster (every hold invalid). */
        void leave() {
            commands.unregister();
            shell.close();
            jobs.unregister();
            locks.unregister();
            node.close();
        }
    }

    @Activate
    void activate(BundleContext context, ClusterConfig config) {
        this.context = context;
        configure(config);
    }

    @Modified
    void modified(ClusterConfig config) {
        configure(config);
    }

    @Deactivate
    void deactivate() {
        Joined previous = joined;
        joined = null;
        if (previous != null) {
            previous.leave();
        }
    }

    /** Validates and applies, all or nothing. */
    private void configure(ClusterConfig config) {
        ConfigCheck check = new ConfigCheck(ClusterSettings.PID);
        ClusterSettings settings = ClusterSettings.of(
                check,
                config.connect_string(),
                config.session_timeout_ms(),
                config.connection_timeout_ms(),
                config.namespace(),
                config.acl_digest(),
                config.lock_patterns());
        if (!check.passed()) {
            LOG.error(check.rejection());
            return;
        }
        if (joined != null && joined.node().settings().equals(settings)) {
            return;
        }
        Joined previous = joined;
        joined = null;
        if (!settings.enabled()) {
            if (previous != null) {
                previous.leave();
            }
            LOG.info("{} has no connect.string: cluster locks and leader-only jobs are off", ClusterSettings.PID);
            return;
        }
        // the new node's services are registered before the old ones go: the jobs bundle moves every runOn job to the
        // new placement with no moment without one (in which it would run them here), the lock front binds the new
        // provider (greedy) before the old one's locks report their holds lost
        ClusterNode node = ClusterNode.start(settings);
        Hashtable<String, Object> properties = new Hashtable<>();
        properties.put("lock.patterns", settings.lockPatterns().toArray(new String[0]));
        ServiceRegistration<ClusterLockProvider> locks =
                context.registerService(ClusterLockProvider.class, node.locks(), properties);
        ServiceRegistration<JobPlacement> jobs =
                context.registerService(JobPlacement.class, node.jobs(), new Hashtable<>());
        Hashtable<String, Object> command = new Hashtable<>();
        command.put("osgi.command.scope", "rouse");
        command.put("osgi.command.function", ClusterCommands.FUNCTIONS);
        ClusterCommands shell = new ClusterCommands(node);
        ServiceRegistration<ClusterCommands> commands = context.registerService(ClusterCommands.class, shell, command);
        joined = new Joined(node, locks, jobs, commands, shell);
        if (previous != null) {
            previous.leave();
        }
    }
}
