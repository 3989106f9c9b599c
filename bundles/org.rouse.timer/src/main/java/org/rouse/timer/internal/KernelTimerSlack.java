package org.rouse.timer.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Linux timer slack of the calling thread ({@code prctl(PR_SET_TIMERSLACK)}): how late the kernel may end a timed
 * wait such as {@link java.util.concurrent.locks.LockSupport#parkNanos}. A normal thread's default is 50 µs, so a
 * worker parked until a deadline wakes up to 50 µs (plus its scheduling) after it; the engine's workers ask for less.
 * Where the native helper is missing (not Linux x86-64, or it cannot be loaded), every call is a no-op and
 * {@link #available()} says why, once.
 *
 * <pre>{@code
 * if (KernelTimerSlack.available()) {
 *     KernelTimerSlack.setForCurrentThread(10_000); // this thread's timed waits end at most 10 µs late (plus scheduling)
 * }
 * }</pre>
 */
final class KernelTimerSlack {

    /*
     * Implementation notes.
     *
     * Sources. prctl(2), PR_SET_TIMERSLACK and PR_GET_TIMERSLACK: per thread, no privilege, 0 resets to the thread's
     * default; hrtimers' soft and hard expiry (the kernel may fire a timer anywhere up to slack after it is due, to
     * fire several in one interrupt).
     *
     * Loading. The library (src/main/c, built by the bundle's native profile) is in the bundle under native/; inside
     * OSGi the Bundle-NativeCode header makes System.loadLibrary find it (the framework extracts it per bundle
     * revision, so an updated bundle loads its own copy beside the old one). On a plain class path (tests,
     * benchmarks) loadLibrary fails and the resource is copied to a private temporary file and loaded from there.
     * Either failure leaves the class unavailable: the engine then runs with the kernel's default slack.
     */

    private static final Logger LOG = LoggerFactory.getLogger(KernelTimerSlack.class);
    private static final String LIBRARY = "rouse-timerslack";
    private static final String RESOURCE = "/native/linux-x86-64/lib" + LIBRARY + ".so";

    /** Null when loaded, else why not; set once by the class initializer. */
    private static final String UNAVAILABLE = load();

    private KernelTimerSlack() {}

    /** Whether the native helper is loaded (Linux x86-64); otherwise {@link #setForCurrentThread} does nothing. */
    static boolean available() {
        return UNAVAILABLE == null;
    }

    /** A Linux thread's timer slack unless set otherwise (prctl(2)). */
    static final long LINUX_DEFAULT_NANOS = 50_000;

    /**
     * The timer slack a worker's timed waits get when it asks for {@code requestedNanos} (0: the thread's default):
     * that much when the helper is loaded and it is positive; otherwise the thread's default, Linux's 50 µs on Linux
     * and none assumed elsewhere.
     */
    static long effectiveNanos(long requestedNanos) {
        if (available() && requestedNanos > 0) {
            return requestedNanos;
        }
        return System.getProperty("os.name", "").startsWith("Linux") ? LINUX_DEFAULT_NANOS : 0;
    }

    /** Why the helper is not loaded, or null when it is. */
    static String unavailableReason() {
        return UNAVAILABLE;
    }

    /**
     * Sets the calling thread's timer slack; {@code nanos} 0 resets it to the thread's default. Returns false (and
     * changes nothing) when the helper is unavailable or the kernel refused.
     */
    static boolean setForCurrentThread(long nanos) {
        if (UNAVAILABLE != null || nanos < 0) {
            return false;
        }
        return set0(nanos) == 0;
    }

    /** The calling thread's timer slack in ns, or -1 when the helper is unavailable or the kernel refused. */
    static long ofCurrentThread() {
        if (UNAVAILABLE != null) {
            return -1;
        }
        long slack = get0();
        return slack < 0 ? -1 : slack;
    }

    private static native int set0(long nanos);

    private static native long get0();

    private static String load() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (!os.startsWith("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
            return "no native helper for " + os + "/" + arch;
        }
        if (Boolean.getBoolean("org.rouse.timer.noNativeSlack")) {
            return "disabled by -Dorg.rouse.timer.noNativeSlack=true";
        }
        try {
            System.loadLibrary(LIBRARY); // inside OSGi: from Bundle-NativeCode
            return null;
        } catch (UnsatisfiedLinkError notOnLibraryPath) {
            return loadFromResource();
        }
    }

    private static String loadFromResource() {
        try (InputStream in = KernelTimerSlack.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                return "the native helper " + RESOURCE + " is not in the bundle";
            }
            Path file = Files.createTempFile(
                    LIBRARY, ".so", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            file.toFile().deleteOnExit();
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            System.load(file.toString());
            return null;
        } catch (IOException | UnsatisfiedLinkError | UnsupportedOperationException | SecurityException e) {
            LOG.debug("Loading the timer-slack helper failed", e);
            return "the native helper could not be loaded: " + e;
        }
    }
}
