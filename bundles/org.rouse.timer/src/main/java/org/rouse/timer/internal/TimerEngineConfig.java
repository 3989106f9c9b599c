package org.rouse.timer.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * The timer engine's machinery. Changes apply in place, without a swap; an invalid set is rejected whole and the last
 * good configuration stays.
 */
@ObjectClassDefinition(
        id = WheelTimerEngine.PID,
        name = "Rouse timer engine",
        description = "Threads and timing wheel of the timer engine. Changes apply in place; pending timers stay.")
@interface TimerEngineConfig {

    @AttributeDefinition(
            name = "Worker threads",
            description = "Threads that wait for deadlines in turn and run timer handlers; one owner uses at most one"
                    + " at a time. Range 1 to 1024.")
    int worker_threads() default WheelTimerEngine.DEFAULT_WORKERS;

    @AttributeDefinition(
            name = "Spin (µs)",
            description = "The waiting worker parks until this long before a deadline and then spins, so a wait this"
                    + " short is spun through without parking: a park costs microseconds of CPU itself and ends tens of"
                    + " microseconds late. More trades CPU for lower lateness; 0 never spins. Range 0 to 1000.")
    long spin_micros() default WheelTimerEngine.DEFAULT_SPIN_MICROS;

    @AttributeDefinition(
            name = "Wheel tick (µs)",
            description = "Width of a slot of the timing wheel's lowest level, rounded down to a power of two"
                    + " nanoseconds. Timers still fire at their exact deadline; the tick only decides how timers are"
                    + " grouped. Range 1 to 1000000.")
    long tick_micros() default WheelTimerEngine.DEFAULT_TICK_MICROS;

    @AttributeDefinition(
            name = "Timer slack (µs)",
            description = "How late a timer may fire so that the deadlines falling due meanwhile fire in the same"
                    + " wake-up (as Linux's timerslack_ns): a wake-up is put off by this much less the lateness the"
                    + " engine's wake-ups have shown (but at least by half of it), so a timer usually fires at most"
                    + " this much after its deadline, never before it, about once per this interval. 0 (the default)"
                    + " wakes at every exact deadline. Range 0 to 1000000.")
    long slack_micros() default 0;

    @AttributeDefinition(
            name = "Help after (µs)",
            description = "The worker that finds timers due runs their handlers itself, one after another, and wakes"
                    + " another worker only when the queued handlers would wait longer than this behind it (judged by"
                    + " how long handlers have recently run) or a handler has run this long; a parked worker checks at"
                    + " most once per interval while timers fire. 0 hands every queued handler to another worker at"
                    + " once. Range 0 to 1000000.")
    long help_after_micros() default WheelTimerEngine.DEFAULT_HELP_AFTER_MICROS;

    @AttributeDefinition(
            name = "Kernel timer slack (µs)",
            description = "How late the kernel may end a worker's timed wait (Linux's per-thread timer slack,"
                    + " prctl(PR_SET_TIMERSLACK); 50 µs by default for a thread). Each worker sets its own, so a parked"
                    + " worker wakes this close to a deadline plus its scheduling; less costs more wake-ups under"
                    + " load. 0 keeps the kernel's default. Linux x86-64 only (elsewhere ignored, with one INFO line)."
                    + " Range 0 to 1000000.")
    long kernel_slack_micros() default WheelTimerEngine.DEFAULT_KERNEL_SLACK_MICROS;
}
