package io.tokenpulse.schemas.logging;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

class RepeatedWarningTest {
    private static final long SECOND = Duration.ofSeconds(1).toNanos();

    private final Recording log = new Recording();
    private final AtomicLong now = new AtomicLong(1_000 * SECOND);
    private final RepeatedWarning warning =
            new RepeatedWarning(log, "poison records", 5, Duration.ofMinutes(1), now::get);

    @Test
    void aThousandWithinAMinuteWriteTheFirstFiveInFullAndNothingElse() {
        for (int i = 1; i <= 1000; i++) {
            warning.warn("poison record {}: {}", i, "bad magic byte");
        }

        assertThat(log.lines)
                .containsExactly(
                        "poison record 1: bad magic byte",
                        "poison record 2: bad magic byte",
                        "poison record 3: bad magic byte",
                        "poison record 4: bad magic byte",
                        "poison record 5: bad magic byte (further poison records are counted, one line per 60 s)");
    }

    @Test
    void afterThePeriodOneLineCountsThoseLeftOutAndShowsTheLatest() {
        for (int i = 1; i <= 1000; i++) {
            warning.warn("poison record {}", i);
        }
        now.addAndGet(61 * SECOND);
        warning.warn("poison record {}", 1001);
        for (int i = 1002; i <= 1011; i++) {
            warning.warn("poison record {}", i); // within the new period: counted only
        }
        now.addAndGet(60 * SECOND);
        warning.warn("poison record {}", 1012);

        assertThat(log.lines)
                .hasSize(7)
                .endsWith(
                        "996 more poison records since the last line; the latest: poison record 1001",
                        "11 more poison records since the last line; the latest: poison record 1012");
    }

    @Test
    void aFewStayInFull() {
        warning.warn("poison record {}", 1);
        now.addAndGet(3600 * SECOND);
        warning.warn("poison record {}", 2);

        assertThat(log.lines).containsExactly("poison record 1", "poison record 2");
    }

    /** Keeps each formatted line. */
    private static final class Recording extends LegacyAbstractLogger {
        final List<String> lines = new ArrayList<>();

        @Override
        protected String getFullyQualifiedCallerName() {
            return null;
        }

        @Override
        protected void handleNormalizedLoggingCall(
                Level level, Marker marker, String pattern, Object[] args, Throwable throwable) {
            lines.add(MessageFormatter.basicArrayFormat(pattern, args));
        }

        @Override
        public boolean isTraceEnabled() {
            return true;
        }

        @Override
        public boolean isDebugEnabled() {
            return true;
        }

        @Override
        public boolean isInfoEnabled() {
            return true;
        }

        @Override
        public boolean isWarnEnabled() {
            return true;
        }

        @Override
        public boolean isErrorEnabled() {
            return true;
        }
    }
}
