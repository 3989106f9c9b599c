package org.rouse.benchmarks.selector;

import org.rouse.benchmarks.scenario.Variant;

/**
 * A variant that puts one {@link ServerSetup}'s server under an {@link EchoLoad}: named and described after the
 * setup, the load opened and closed with the variant. Subclasses say what a round is.
 */
abstract class EchoLoadVariant implements Variant {

    private final ServerSetup setup;
    private final int connections;
    private final long thinkNanos;

    /** Set by open(), used by the runner's thread only. */
    private EchoLoad load;

    /** @param thinkNanos the clients' pause after each chain; 0 = back to back */
    EchoLoadVariant(ServerSetup setup, int connections, long thinkNanos) {
        this.setup = setup;
        this.connections = connections;
        this.thinkNanos = thinkNanos;
    }

    @Override
    public final String name() {
        return setup.name();
    }

    @Override
    public final String description() {
        return setup.description();
    }

    @Override
    public final void open() throws Exception {
        load = EchoLoad.open(setup, connections, thinkNanos);
    }

    /** The server and its clients, once opened. */
    final EchoLoad load() {
        return load;
    }

    @Override
    public final void close() throws Exception {
        if (load != null) {
            load.close();
        }
    }
}
