package org.rouse.examples.resp.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;
import org.osgi.service.metatype.annotations.Option;

/** Where the RESP server listens and what it accepts from clients. */
@ObjectClassDefinition(
        id = RespServerComponent.PID,
        name = "Rouse example: RESP server",
        description = "A small Redis-protocol (RESP2) server on the selector service: PING, ECHO, SET, GET, DEL,"
                + " EXISTS, INCR, MGET, with its key space guarded by lock stripes.")
@interface RespServerConfig {

    @AttributeDefinition(
            name = "Port",
            description = "TCP port to listen on; 0 picks a free one (logged). Range 0 to 65535.")
    int port() default 6380;

    @AttributeDefinition(
            name = "Bind address",
            description = "Address to listen on; keep it a loopback address, the server has no authentication.")
    String bind_address() default "127.0.0.1";

    @AttributeDefinition(
            name = "Maximum inline command length (bytes)",
            description = "Longest inline (telnet-style) command line. Range 16 to 1048576.")
    int max_inline_length() default 65_536;

    @AttributeDefinition(
            name = "Maximum bulk length (bytes)",
            description = "Longest argument of a multi-bulk command, e.g. a SET value. Range 1 to 67108864.")
    int max_bulk_length() default 1_048_576;

    @AttributeDefinition(
            name = "Maximum arguments",
            description = "Most arguments in one command, e.g. keys of one MGET. Range 1 to 1000000.")
    int max_arguments() default 1024;

    @AttributeDefinition(
            name = "Idle timeout (s)",
            description = "A connection with no request for this long is closed; 0 never closes one. Applies to"
                    + " connections accepted after a change. Range 0 to 86400.")
    int idle_timeout_seconds() default 300;

    @AttributeDefinition(
            name = "Maximum connections",
            description = "Connections open at once; more are accepted and closed at once. Range 1 to 1000000.")
    int max_connections() default 10_000;

    @AttributeDefinition(
            name = "Listen backlog",
            description = "Connections the kernel queues for the acceptor (capped by net.core.somaxconn). Too small a"
                    + " backlog makes a storm of connecting clients wait for SYN retransmissions (1 s each). Applies"
                    + " when the server next binds. Range 1 to 65535.")
    int listen_backlog() default 1024;

    @AttributeDefinition(
            name = "Connection dispatch",
            description = "Where commands run. INLINE: on the selector's loop thread, as Redis runs them on its event"
                    + " loop (every command is in memory and holds a key-space stripe only for one map operation, so"
                    + " none blocks; saves a thread hand-off per request). POOL: on the selector's worker pool, with"
                    + " a wake-up of the loop after each upcall. Applies to connections accepted after a change.",
            options = {
                @Option(label = "Inline (on the loop thread)", value = "INLINE"),
                @Option(label = "Pool (on a worker)", value = "POOL")
            })
    String connection_dispatch() default "INLINE";
}
