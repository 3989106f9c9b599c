package org.rouse.api.internal;

import java.util.List;
import org.apache.felix.hc.api.FormattingResultLog;
import org.apache.felix.hc.api.Result;

/**
 * Turns {@link HealthFinding}s into a Felix HC {@link Result}: OK findings as INFO entries, the others as WARN or
 * CRITICAL entries, so the result's status is the worst finding's.
 *
 * <p>This class and the {@code ...HealthCheck} components are the only ones that name {@code org.apache.felix.hc.api}
 * (an optional import of the API bundle): SCR loads them only when Felix HC's executor gets a check's service.
 */
public final class HealthResults {

    /** The tag every Rouse check carries ({@code hc:exec rouse}). */
    public static final String TAG = "rouse";

    private HealthResults() {}

    /** The result of {@code findings} (an empty list is OK with no entries). */
    public static Result of(List<HealthFinding> findings) {
        FormattingResultLog log = new FormattingResultLog();
        for (HealthFinding f : findings) {
            switch (f.level()) {
                case OK -> log.info("{}", f.message());
                case WARN -> log.warn("{}", f.message());
                case CRITICAL -> log.critical("{}", f.message());
            }
        }
        return new Result(log);
    }
}
