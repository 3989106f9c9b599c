package org.rouse.jobs.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Reads and checks a job service's {@code scheduler.*} properties, with the names and precedence of the Apache Sling
 * Commons Scheduler whiteboard (which Apache Karaf's scheduler copies).
 *
 * <p>Precedence: a service is a job if it has {@code scheduler.expression} or {@code scheduler.period}. If it has
 * both, the expression wins and the period, {@code scheduler.immediate} and {@code scheduler.times} do not apply
 * (Sling tries the expression first). Every {@code scheduler.*} property that is set must still be valid, even one
 * that does not apply: a job with any bad value is not scheduled.
 *
 * <p>Accepted values, with what Sling and Karaf registrations carry in practice:
 *
 * <ul>
 *   <li>{@code scheduler.period}: whole seconds ≥ 1, as a {@code Long} (Sling's type), any other integral number,
 *       or a string of digits (configuration-driven registrations).
 *   <li>{@code scheduler.expression}: a Quartz cron expression (seconds first) that cron-utils parses.
 *   <li>{@code scheduler.times}: a whole number ≥ 1, as a number or a string.
 *   <li>{@code scheduler.concurrent}, {@code scheduler.immediate}: a {@code Boolean} or the strings {@code true} and
 *       {@code false} in any case.
 *   <li>{@code scheduler.name}: a non-blank string.
 *   <li>{@code scheduler.runOn}: {@code LEADER} or {@code SINGLE}, as a string or a one-element string array.
 * </ul>
 */
final class JobProperties {

    static final String PERIOD = "scheduler.period";
    static final String EXPRESSION = "scheduler.expression";
    static final String CONCURRENT = "scheduler.concurrent";
    static final String IMMEDIATE = "scheduler.immediate";
    static final String TIMES = "scheduler.times";
    static final String NAME = "scheduler.name";
    static final String RUN_ON = "scheduler.runOn";

    /** The service filter of the whiteboard: what Sling tracks. */
    static final String FILTER = "(|(" + EXPRESSION + "=*)(" + PERIOD + "=*))";

    static final String LEADER = "LEADER";
    static final String SINGLE = "SINGLE";

    private JobProperties() {}

    /** A property whose value is not allowed; the job is not scheduled. */
    static final class InvalidJobException extends Exception {
        private static final long serialVersionUID = 1L;

        /** The property whose value is not allowed. */
        final String property;

        InvalidJobException(String property, Object value, String allowed) {
            super(property + " = " + render(value) + " is not allowed: " + allowed);
            this.property = property;
        }
    }

    /**
     * Reads a job's schedule.
     *
     * @param properties the service's properties by name (for example {@code ServiceReference::getProperty})
     * @param serviceId the service's {@code service.id}, for the default name
     * @throws InvalidJobException naming the first property whose value is not allowed
     * @throws IllegalArgumentException if neither {@code scheduler.expression} nor {@code scheduler.period} is set
     */
    static JobSpec read(Function<String, Object> properties, long serviceId) throws InvalidJobException {
        Object expressionValue = properties.apply(EXPRESSION);
        Object periodValue = properties.apply(PERIOD);
        if (expressionValue == null && periodValue == null) {
            throw new IllegalArgumentException("neither " + EXPRESSION + " nor " + PERIOD + " is set");
        }
        CronSchedule cron = null;
        if (expressionValue != null) {
            if (!(expressionValue instanceof String) || ((String) expressionValue).isBlank()) {
                throw new InvalidJobException(
                        EXPRESSION, expressionValue, "a Quartz cron expression string, e.g. \"0/10 * * * * ?\"");
            }
            try {
                cron = CronSchedule.parse((String) expressionValue);
            } catch (IllegalArgumentException e) {
                throw new InvalidJobException(
                        EXPRESSION,
                        expressionValue,
                        "a Quartz cron expression (seconds minutes hours day-of-month month day-of-week [year]), e.g."
                                + " \"0/10 * * * * ?\"; cron-utils: " + e.getMessage());
            }
        }
        Long period = periodValue == null ? null : wholeNumber(PERIOD, periodValue, "whole seconds ≥ 1 (a Long)");
        Long times = wholeNumberOrNull(properties, TIMES, "a whole number of runs ≥ 1");
        boolean concurrent = flag(properties, CONCURRENT, false);
        boolean immediate = flag(properties, IMMEDIATE, false);
        String runOn = runOn(properties.apply(RUN_ON));
        String name = name(properties, serviceId);

        List<String> notes = new ArrayList<>();
        if (cron != null) {
            for (String ignored : new String[] {PERIOD, IMMEDIATE, TIMES}) {
                if (properties.apply(ignored) != null) {
                    notes.add(ignored);
                }
            }
            return new JobSpec(name, cron, null, concurrent, false, JobSpec.UNLIMITED, runOn, notes);
        }
        return new JobSpec(
                name,
                null,
                Duration.ofSeconds(period),
                concurrent,
                immediate,
                times == null ? JobSpec.UNLIMITED : times,
                runOn,
                notes);
    }

    private static Long wholeNumberOrNull(Function<String, Object> properties, String property, String allowed)
            throws InvalidJobException {
        Object value = properties.apply(property);
        return value == null ? null : wholeNumber(property, value, allowed);
    }

    /** A whole number ≥ 1 from an integral number or a string of digits. */
    private static long wholeNumber(String property, Object value, String allowed) throws InvalidJobException {
        long result;
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            result = ((Number) value).longValue();
        } else if (value instanceof String) {
            try {
                result = Long.parseLong(((String) value).trim());
            } catch (NumberFormatException e) {
                throw new InvalidJobException(property, value, allowed);
            }
        } else {
            throw new InvalidJobException(property, value, allowed);
        }
        if (result < 1) {
            throw new InvalidJobException(property, value, allowed);
        }
        return result;
    }

    private static boolean flag(Function<String, Object> properties, String property, boolean otherwise)
            throws InvalidJobException {
        Object value = properties.apply(property);
        if (value == null) {
            return otherwise;
        }
        if (value instanceof Boolean) {
            return (Boolean) value;
        }
        if (value instanceof String) {
            String text = ((String) value).trim();
            if (text.equalsIgnoreCase("true")) {
                return true;
            }
            if (text.equalsIgnoreCase("false")) {
                return false;
            }
        }
        throw new InvalidJobException(property, value, "a Boolean, or the string true or false");
    }

    private static String runOn(Object value) throws InvalidJobException {
        if (value == null) {
            return null;
        }
        Object single = value;
        if (value instanceof String[]) {
            String[] values = (String[]) value;
            if (values.length != 1) {
                throw new InvalidJobException(RUN_ON, value, "LEADER or SINGLE");
            }
            single = values[0];
        }
        if (LEADER.equals(single) || SINGLE.equals(single)) {
            return (String) single;
        }
        throw new InvalidJobException(RUN_ON, value, "LEADER or SINGLE");
    }

    private static String name(Function<String, Object> properties, long serviceId) throws InvalidJobException {
        Object value = properties.apply(NAME);
        if (value != null) {
            if (!(value instanceof String) || ((String) value).isBlank()) {
                throw new InvalidJobException(NAME, value, "a non-blank string");
            }
            return ((String) value).trim();
        }
        Object pid = properties.apply("service.pid");
        if (pid instanceof String) {
            return pid + "." + serviceId;
        }
        return "job." + serviceId;
    }

    /** A property value as a log line shows it: strings quoted, arrays listed, with the type when not obvious. */
    static String render(Object value) {
        if (value instanceof String) {
            return "\"" + value + "\"";
        }
        if (value instanceof Object[]) {
            List<String> items = new ArrayList<>();
            for (Object item : (Object[]) value) {
                items.add(render(item));
            }
            return items.toString();
        }
        if (value == null) {
            return "null";
        }
        return value + " (" + value.getClass().getSimpleName().toLowerCase(Locale.ROOT) + ")";
    }
}
