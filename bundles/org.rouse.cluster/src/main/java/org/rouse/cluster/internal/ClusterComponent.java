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
    /** The node in use, or null; written in activate/modified/deactivate. */
    private ClusterNode node;
    /** The lock provider's registration, or null; written with node. */
    private ServiceRegistration<ClusterLockProvider> lockRegistration;
    /** The job placement's registration, or null; written with node. */
    private ServiceRegistration<JobPlacement> jobsRegistration;
    /** The rouse:cluster command's registration, or null; written with node. */
    private ServiceRegistration<ClusterCommands> commandsRegistration;

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
        leave();
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
        if (node != null && node.settings().equals(settings)) {
            return;
        }
        leave();
        if (!settings.enabled()) {
            LOG.info("{} has no connect.string: cluster locks and leader-only jobs are off", ClusterSettings.PID);
            return;
        }
        node = ClusterNode.start(settings);
        Hashtable<String, Object> properties = new Hashtable<>();
        properties.put("lock.patterns", settings.lockPatterns().toArray(new String[0]));
        lockRegistration = context.registerService(ClusterLockProvider.class, node.locks(), properties);
        jobsRegistration = context.registerService(JobPlacement.class, node.jobs(), new Hashtable<>());
        Hashtable<String, Object> command = new Hashtable<>();
        command.put("osgi.command.scope", "rouse");
        command.put("osgi.command.function", ClusterCommands.FUNCTIONS);
        commandsRegistration = context.registerService(ClusterCommands.class, new ClusterCommands(node), command);
    }

    private void leave() {
        ServiceRegistration<ClusterCommands> commands = commandsRegistration;
        commandsRegistration = null;
        if (commands != null) {
            commands.unregister();
        }
        ServiceRegistration<JobPlacement> jobs = jobsRegistration;
        jobsRegistration = null;
        if (jobs != null) {
            jobs.unregister();
        }
        ServiceRegistration<ClusterLockProvider> locks = lockRegistration;
        lockRegistration = null;
        if (locks != null) {
            locks.unregister();
        }
        ClusterNode current = node;
        node = null;
        if (current != null) {
            current.close();
        }
    }
}
