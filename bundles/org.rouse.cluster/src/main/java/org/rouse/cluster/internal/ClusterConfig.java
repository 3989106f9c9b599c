package org.rouse.cluster.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.AttributeType;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * The cluster bundle's settings (PID {@value ClusterSettings#PID}). Without a configuration, or with an empty
 * {@code connect.string}, the bundle registers nothing and every Rouse lock and job stays local.
 */
@ObjectClassDefinition(
        id = ClusterSettings.PID,
        name = "Rouse cluster (ZooKeeper)",
        description = "Cluster-wide named locks with fencing tokens and leader-only jobs on Apache ZooKeeper, through"
                + " Apache Curator. Nothing changes until connect.string is set.")
@interface ClusterConfig {

    @AttributeDefinition(
            name = "Connect string",
            description = "ZooKeeper servers, host:port[,host:port...]; empty: the cluster bundle stays off.",
            required = false)
    String connect_string() default "";

    @AttributeDefinition(
            name = "Session timeout (ms)",
            description = "ZooKeeper session timeout requested by this node: a node that stops answering loses its"
                    + " cluster locks and leaderships this long after its last contact. Range 1000 to 600000.")
    int session_timeout_ms() default ClusterSettings.DEFAULT_SESSION_TIMEOUT_MS;

    @AttributeDefinition(
            name = "Connection timeout (ms)",
            description = "How long one connection attempt to the ensemble may take. Range 100 to 600000.")
    int connection_timeout_ms() default ClusterSettings.DEFAULT_CONNECTION_TIMEOUT_MS;

    @AttributeDefinition(
            name = "Namespace",
            description = "Root znode under which Rouse keeps its nodes (a path element, no '/').")
    String namespace() default ClusterSettings.DEFAULT_NAMESPACE;

    @AttributeDefinition(
            name = "Digest credentials",
            description = "user:password for ZooKeeper's digest scheme: every node Rouse creates is readable and"
                    + " writable only by these credentials. Empty: nodes are open to every client (logged).",
            type = AttributeType.PASSWORD,
            required = false)
    String acl_digest() default "";

    @AttributeDefinition(
            name = "Lock name patterns",
            description = "Globs (* and ?) of the lock names that are cluster-wide locks, e.g. cluster.*; other names"
                    + " stay local.")
    String[] lock_patterns() default {ClusterSettings.DEFAULT_LOCK_PATTERN};
}
