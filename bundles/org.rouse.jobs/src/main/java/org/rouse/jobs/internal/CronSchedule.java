package org.rouse.jobs.internal;

import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * A Quartz cron expression ({@code seconds minutes hours day-of-month month day-of-week [year]}, as Sling's and
 * Karaf's schedulers take in {@code scheduler.expression}), parsed and evaluated by cron-utils.
 *
 * <p>Immutable and thread-safe: cron-utils' parsed {@code Cron} and {@code ExecutionTime} hold no mutable state.
 */
final class CronSchedule {

    /** cron-utils' parser is thread-safe once built; building the Quartz definition costs more than parsing. */
    private static final CronParser QUARTZ =
            new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.QUARTZ));

    private final String expression;
    private final ExecutionTime executionTime;

    private CronSchedule(String expression, ExecutionTime executionTime) {
        this.expression = expression;
        this.executionTime = executionTime;
    }

    /**
     * Parses a Quartz cron expression.
     *
     * @throws IllegalArgumentException with cron-utils' reason if it does not parse
     */
    static CronSchedule parse(String expression) {
        String trimmed = expression.trim();
        try {
            return new CronSchedule(trimmed, ExecutionTime.forCron(QUARTZ.parse(trimmed)));
        } catch (RuntimeException e) {
            // cron-utils reports a bad expression as IllegalArgumentException, some field errors as other runtime
            // exceptions (for example NumberFormatException); all mean the same thing here
            throw new IllegalArgumentException(String.valueOf(e.getMessage()), e);
        }
    }

    /**
     * The next time strictly after {@code after}, a whole second, or empty if the expression names no later time.
     */
    Optional<ZonedDateTime> nextAfter(ZonedDateTime after) {
        // cron-utils keeps the fraction of a second of its argument in the result: from 12:00:00.947 the next time
        // of "* * * * * ?" would be 12:00:01.947. Cron names whole seconds, and the next whole second after the
        // truncated time is the next one after the time itself.
        return executionTime.nextExecution(after.truncatedTo(ChronoUnit.SECONDS));
    }

    @Override
    public String toString() {
        return expression;
    }
}
