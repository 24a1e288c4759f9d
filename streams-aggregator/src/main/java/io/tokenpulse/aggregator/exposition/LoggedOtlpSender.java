package io.tokenpulse.aggregator.exposition;

import io.micrometer.core.ipc.http.HttpUrlConnectionSender;
import io.micrometer.registry.otlp.OtlpHttpMetricsSender;
import io.micrometer.registry.otlp.OtlpMetricsSender;
import io.tokenpulse.schemas.logging.RepeatedWarning;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Micrometer's OTLP/HTTP sender, whose failures become one rate-limited line of ours: the registry
 * itself logs each failed push with its stack trace, which a user's console must not show. A missed
 * push loses nothing (the meters are cumulative; the next push carries them).
 */
final class LoggedOtlpSender implements OtlpMetricsSender {

    private static final Logger LOG = LoggerFactory.getLogger(LoggedOtlpSender.class);
    private static final RepeatedWarning FAILED = new RepeatedWarning(LOG, "failed OTLP pushes");

    private final OtlpMetricsSender http = new OtlpHttpMetricsSender(new HttpUrlConnectionSender());
    private final AtomicLong failures = new AtomicLong();

    @Override
    public void send(Request request) {
        try {
            http.send(request);
        } catch (Exception e) {
            failures.incrementAndGet();
            FAILED.warn(
                    "OTLP push to {} failed ({}); the next push carries the same cumulative meters",
                    request.getAddress(),
                    e.getMessage());
        }
    }

    /** Pushes that failed so far. */
    long failures() {
        return failures.get();
    }
}
