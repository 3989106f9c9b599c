/*
 * The per-thread Linux timer slack (prctl(PR_SET_TIMERSLACK)) for the timer engine's workers: how late the kernel may
 * expire the timeout of a parked worker, 50 µs by default for a normal thread, which is what bounded the precision of
 * LockSupport.parkNanos and so every deadline the engine waits for. Called by KernelTimerSlack (Java), one call per
 * worker thread, for the calling thread only; needs no privilege.
 */
#include <errno.h>
#include <jni.h>
#include <sys/prctl.h>

/* Sets the calling thread's timer slack to nanos (0: back to the thread's default); 0 or the errno. */
JNIEXPORT jint JNICALL Java_org_rouse_timer_internal_KernelTimerSlack_set0(JNIEnv *env, jclass cls, jlong nanos) {
    (void) env;
    (void) cls;
    if (nanos < 0) {
        return EINVAL;
    }
    return prctl(PR_SET_TIMERSLACK, (unsigned long) nanos, 0UL, 0UL, 0UL) == 0 ? 0 : errno;
}

/* The calling thread's timer slack in ns, or minus the errno. */
JNIEXPORT jlong JNICALL Java_org_rouse_timer_internal_KernelTimerSlack_get0(JNIEnv *env, jclass cls) {
    (void) env;
    (void) cls;
    int slack = prctl(PR_GET_TIMERSLACK, 0UL, 0UL, 0UL, 0UL);
    return slack < 0 ? -(jlong) errno : (jlong) slack;
}
