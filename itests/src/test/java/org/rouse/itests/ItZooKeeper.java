package org.rouse.itests;

import org.apache.curator.test.TestingServer;

/**
 * One ZooKeeper server for the integration tests, started on the driver side (outside Felix) on first use and
 * stopped when the JVM exits. Only the driver loads this class: the tests inside the framework read its connect
 * string from a system property.
 */
final class ItZooKeeper {

    private static TestingServer server;

    private ItZooKeeper() {}

    static synchronized String connectString() {
        if (server == null) {
            try {
                server = new TestingServer(true);
            } catch (Exception e) {
                throw new IllegalStateException("cannot start a ZooKeeper test server", e);
            }
            TestingServer started = server;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    started.close();
                } catch (java.io.IOException e) {
                    // the JVM is exiting
                }
            }));
        }
        return server.getConnectString();
    }
}
