package io.tokenpulse.aggregator.report;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/**
 * A ramp-up run's keys as vLLM writes them after {@code max_concurrency}: {@code ramp_up_strategy},
 * {@code ramp_up_start_rps}, {@code ramp_up_end_rps} (whole numbers, vLLM's flags are ints; ours take
 * fractions too, written as given). Left out without a ramp-up, as vLLM leaves them out.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record RampUpKeys(String rampUpStrategy, Number rampUpStartRps, Number rampUpEndRps) {

    /** The keys for these flag values. */
    public static RampUpKeys of(String strategy, double startRps, double endRps) {
        return new RampUpKeys(strategy, asPython(startRps), asPython(endRps));
    }

    private static Number asPython(double rps) {
        return rps == Math.rint(rps) ? (Number) (long) rps : (Number) rps;
    }

    /**
     * One of vLLM's {@code rps_change_events}: a whole rate the ramp reached and when, as Python's
     * {@code datetime.now().isoformat()} writes it (local time, microseconds left out when 0).
     */
    public record RpsChangeEvent(long rps, String timestamp) {

        private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss");

        public static RpsChangeEvent at(long rps, long epochNs, ZoneId zone) {
            LocalDateTime time = LocalDateTime.ofInstant(Instant.ofEpochSecond(0, epochNs), zone);
            int micros = time.getNano() / 1_000;
            return new RpsChangeEvent(rps, SECONDS.format(time) + (micros == 0 ? "" : String.format(".%06d", micros)));
        }
    }
}
