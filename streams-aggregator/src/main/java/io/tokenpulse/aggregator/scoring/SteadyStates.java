package io.tokenpulse.aggregator.scoring;

import io.tokenpulse.aggregator.metrics.GoodputSlo;
import io.tokenpulse.aggregator.metrics.MetricsAccumulator;
import io.tokenpulse.aggregator.metrics.RequestValues;
import io.tokenpulse.aggregator.metrics.SteadyState;
import io.tokenpulse.aggregator.metrics.SteadyStateResult;
import io.tokenpulse.aggregator.records.RequestMetricsMapper;
import io.tokenpulse.schemas.avro.RequestMetrics;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Finds a run's steady plateau ({@link SteadyState}) from its successful requests' send and last-event
 * times, then scores the requests wholly inside it with the run's own math. Collects 16 bytes per
 * request on the way; mutable, not thread-safe.
 */
final class SteadyStates {

    /**
     * The plateau's figures, or why the run has none: exactly one of the two is present.
     */
    record Outcome(Optional<SteadyStateResult> result, Optional<String> absentReason) {
        Outcome {
            if (result.isPresent() == absentReason.isPresent()) {
                throw new IllegalArgumentException("a steady state or a reason, not both or neither");
            }
        }

        static Outcome absent(String why) {
            return new Outcome(Optional.empty(), Optional.of(why));
        }
    }

    private long[] sentNs = new long[64];
    private long[] lastNs = new long[64];
    private int size;

    /** Adds one of the run's requests; only successful ones shape the plateau. */
    void add(RequestValues request) {
        if (!request.success()) {
            return;
        }
        if (size == sentNs.length) {
            sentNs = Arrays.copyOf(sentNs, size * 2);
            lastNs = Arrays.copyOf(lastNs, size * 2);
        }
        sentNs[size] = request.sentNs();
        lastNs[size] = request.lastNs();
        size++;
    }

    /** The plateau's figures over {@code requests} (opened once more), scored with {@code options}. */
    Outcome score(Supplier<Stream<RequestMetrics>> requests, RunScoring.Options options) {
        if (size == 0) {
            return Outcome.absent("no successful request");
        }
        Optional<SteadyState> found = SteadyState.of(Arrays.copyOf(sentNs, size), Arrays.copyOf(lastNs, size));
        if (found.isEmpty()) {
            return Outcome.absent("the in-flight count never held its peak band for any time");
        }
        SteadyState window = found.get();
        MetricsAccumulator inside = new MetricsAccumulator(window.startNs(), GoodputSlo.NONE);
        try (Stream<RequestMetrics> all = requests.get()) {
            all.filter(m -> m.getSuccess() && !m.getProbe())
                    .map(RequestMetricsMapper::values)
                    .filter(v -> window.holds(v.sentNs(), v.lastNs()))
                    .forEach(inside::add);
        }
        if (inside.completed() == 0) {
            return Outcome.absent("no request was sent and ended inside the plateau of " + window.plateau()
                    + " in flight: the load never held steady for a request's whole life");
        }
        return new Outcome(
                Optional.of(new SteadyStateResult(
                        window,
                        inside.completed(),
                        inside.totalOutputTokens(),
                        options.selection().metrics().stream()
                                .map(m -> inside.stats(m, options.percentiles().percentiles()))
                                .toList())),
                Optional.empty());
    }
}
