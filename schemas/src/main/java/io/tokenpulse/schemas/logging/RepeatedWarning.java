package io.tokenpulse.schemas.logging;

import java.time.Duration;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * A warning that can repeat without bound (one per poison record, per expired join state, per failed
 * scrape): the first {@code detailed} occurrences are logged in full, later ones are only counted, and
 * at most once per {@code period} one line says how many were left out since the last line, with the
 * latest one's detail. So 1 000 poison records write a handful of lines, not 1 000; the exact counts
 * stay in the meters (e.g. {@code dead-lettered-records-total}).
 *
 * <p>Why not a logging backend's filter: the jar logs through slf4j-simple, which has none; Log4j 2's
 * {@code BurstFilter} and Logback's {@code DuplicateMessageFilter} drop the excess without saying how
 * much, and Flogger's {@code atMostEvery} would bring a second logging API for three call sites.
 *
 * <p>The count of the last period is written when the next occurrence comes after it ends, so a burst
 * that stops leaves its last count unwritten. Thread-safe.
 */
public final class RepeatedWarning {
    /** Occurrences logged in full before counting starts. */
    public static final int DETAILED = 5;
    /** At most one count line per period. */
    public static final Duration PERIOD = Duration.ofMinutes(1);

    private final Logger log;
    private final String what;
    private final int detailed;
    private final long periodNs;
    private final LongSupplier nanoClock;
    private long occurrences;
    private long leftOut;
    private long lastLineNs;

    /**
     * @param what the warning in the plural, for the count line, e.g. {@code "dead-lettered records"}
     */
    public RepeatedWarning(Logger log, String what) {
        this(log, what, DETAILED, PERIOD, System::nanoTime);
    }

    RepeatedWarning(Logger log, String what, int detailed, Duration period, LongSupplier nanoClock) {
        this.log = log;
        this.what = what;
        this.detailed = detailed;
        this.periodNs = period.toNanos();
        this.nanoClock = nanoClock;
    }

    /** One occurrence: {@code Logger.warn(format, args)} while few, else counted (see the class comment). */
    public void warn(String format, Object... args) {
        String line;
        synchronized (this) {
            occurrences++;
            long now = nanoClock.getAsLong();
            if (occurrences < detailed) {
                line = format;
            } else if (occurrences == detailed) {
                line = format + " (further " + what + " are counted, one line per " + periodNs / 1_000_000_000L + " s)";
            } else if (now - lastLineNs >= periodNs) {
                line = (leftOut + 1) + " more " + what + " since the last line; the latest: " + format;
                leftOut = 0;
            } else {
                leftOut++;
                return;
            }
            lastLineNs = now;
        }
        log.warn(line, args);
    }
}
