package org.rouse.api.internal;

import java.time.Duration;
import java.util.Objects;

/** Argument checks shared by the fronts, so every service words its errors the same way. */
public final class Arguments {

    /** The longest delay accepted: far enough for any use, near enough that deadlines never overflow. */
    public static final long MAX_DELAY_NANOS = Long.MAX_VALUE / 4;

    private Arguments() {}

    /** Returns {@code value}, or throws {@link NullPointerException} naming the argument. */
    public static <T> T notNull(T value, String name) {
        return Objects.requireNonNull(value, () -> name + " must not be null");
    }

    /** Returns a non-empty name, or throws naming the argument. */
    public static String name(String value, String argument) {
        notNull(value, argument);
        if (value.isEmpty()) {
            throw new IllegalArgumentException(argument + " must not be empty");
        }
        return value;
    }

    /**
     * Returns the duration in nanoseconds.
     *
     * @throws NullPointerException if it is null
     * @throws IllegalArgumentException if it is negative, or zero when {@code positive}, or longer than
     *     {@link #MAX_DELAY_NANOS}
     */
    public static long nanos(Duration value, String argument, boolean positive) {
        notNull(value, argument);
        if (value.isNegative()) {
            throw new IllegalArgumentException(argument + " must not be negative: " + value);
        }
        if (positive && value.isZero()) {
            throw new IllegalArgumentException(argument + " must be positive: " + value);
        }
        long nanos;
        try {
            nanos = value.toNanos();
        } catch (ArithmeticException overflow) {
            nanos = Long.MAX_VALUE;
        }
        if (nanos > MAX_DELAY_NANOS) {
            throw new IllegalArgumentException(
                    argument + " is too large: " + value + " (at most " + Duration.ofNanos(MAX_DELAY_NANOS) + ")");
        }
        return nanos;
    }
}
