package org.rouse.runtime.itconsumer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Hashtable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;
import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.ServiceRegistration;
import org.rouse.lock.FencedLock;
import org.rouse.lock.LockService;

/**
 * The activator of the test bundle {@code ClusterRuntimeIT} installs into each forked runtime: it hammers the cluster
 * lock {@value #LOCK} and reports every hold to the test's fenced store, and registers the whiteboard job
 * {@value #JOB} ({@code scheduler.runOn=LEADER}, every second) that reports each run. The node's name and the store's
 * loopback port come from the bundle's manifest headers {@value #NODE_HEADER} and {@value #PORT_HEADER}.
 *
 * <p>Protocol, one line per request and one reply line: {@code BEGIN <node> <token> <valid>} once the lock is granted,
 * {@code END <node> <token> <valid>} before it is released, {@code RUN <node> <epoch millis>} per job run,
 * {@code ERROR <node> <text>} for anything unexpected. {@code valid} is {@link FencedLock#isValid()} at that moment.
 */
public final class ClusterConsumer implements BundleActivator {

    /*
     * Implementation notes. The hammer thread is the only user of its connection and the job runs are serialized by
     * the whiteboard (scheduler.concurrent defaults to false), each on a connection of its own. The reply to BEGIN is
     * awaited while the lock is held: the test kills this process from inside its BEGIN handler, so it dies holding.
     */

    public static final String LOCK = "cluster.it";
    public static final String JOB = "it-leader";
    public static final String NODE_HEADER = "Rouse-IT-Node";
    public static final String PORT_HEADER = "Rouse-IT-Port";

    /** How long each hold lasts: long enough that the other node queues behind it. */
    private static final long HOLD_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    /** Set by stop(); volatile, read by the hammer thread. */
    private volatile boolean stopped;

    private Thread hammer;
    private ServiceRegistration<Runnable> job;
    private Line lockLine;
    private Line jobLine;

    @Override
    public void start(BundleContext context) throws IOException {
        String node = context.getBundle().getHeaders().get(NODE_HEADER);
        int port = Integer.parseInt(context.getBundle().getHeaders().get(PORT_HEADER));
        lockLine = new Line(port);
        jobLine = new Line(port);
        hammer = new Thread(() -> hammer(context, node), "it-lock-hammer");
        hammer.setDaemon(true);
        hammer.start();
        Hashtable<String, Object> properties = new Hashtable<>();
        properties.put("scheduler.period", 1L);
        properties.put("scheduler.runOn", "LEADER");
        properties.put("scheduler.name", JOB);
        job = context.registerService(
                Runnable.class, () -> jobLine.call("RUN " + node + " " + System.currentTimeMillis()), properties);
    }

    @Override
    public void stop(BundleContext context) throws InterruptedException {
        stopped = true;
        job.unregister();
        hammer.interrupt();
        hammer.join(TimeUnit.SECONDS.toMillis(10));
        lockLine.close();
        jobLine.close();
    }

    private void hammer(BundleContext context, String node) {
        FencedLock lock = null;
        while (!stopped) {
            try {
                if (lock == null) {
                    lock = clusterLock(context);
                    if (lock == null) { // the lock service or the cluster provider is not there yet: look again
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
                        continue;
                    }
                }
                lock.lockInterruptibly();
                try {
                    long token = lock.fencingToken();
                    lockLine.call("BEGIN " + node + " " + token + " " + lock.isValid());
                    LockSupport.parkNanos(HOLD_NANOS);
                    lockLine.call("END " + node + " " + token + " " + lock.isValid());
                } finally {
                    lock.unlock();
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (!stopped) {
                    lockLine.call("ERROR " + node + " " + e);
                    lock = null; // e.g. the provider was replaced: look the lock up again
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
                }
            }
        }
    }

    /** The cluster lock, or null while the lock service or the cluster provider behind it is missing. */
    private static FencedLock clusterLock(BundleContext context) {
        ServiceReference<LockService> reference = context.getServiceReference(LockService.class);
        if (reference == null) {
            return null;
        }
        LockService locks = context.getService(reference);
        if (locks == null) {
            return null;
        }
        Lock lock = locks.lock(LOCK);
        return lock instanceof FencedLock fenced ? fenced : null;
    }

    /** One loopback connection to the test's store: a request line, then its reply line. */
    private static final class Line {
        private final Socket socket;
        private final Writer out;
        private final BufferedReader in;

        Line(int port) throws IOException {
            socket = new Socket(InetAddress.getLoopbackAddress(), port);
            out = new OutputStreamWriter(socket.getOutputStream(), StandardCharsets.UTF_8);
            in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        }

        synchronized String call(String request) {
            try {
                out.write(request + "\n");
                out.flush();
                return in.readLine();
            } catch (IOException e) {
                throw new IllegalStateException("the test's store is gone: " + e, e);
            }
        }

        void close() {
            try {
                socket.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }
}
