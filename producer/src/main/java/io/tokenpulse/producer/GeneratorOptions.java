package io.tokenpulse.producer;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.soabase.recordbuilder.core.RecordBuilder;
import io.tokenpulse.producer.http.HttpClientSettings;
import io.tokenpulse.producer.scrape.RunScrapes;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * How a {@link LoadGenerator} runs its shards, beyond the run's own {@link LoadSettings}: start from
 * {@link #defaults()} and change what differs with the generated withers ({@code withMeters(...)}).
 *
 * @param meters where the client's health goes (schedule lag, requests in flight, chunk and
 *     publisher counts)
 * @param http the HTTP client's settings (timeouts, I/O threads)
 * @param stop completes when the run is to stop (a Ctrl-C): no request is sent after it
 * @param drainTimeout how long the requests in flight at a stop may finish before they are cancelled
 * @param firstTokens told each request's time to first token as it arrives (from the I/O thread)
 * @param serverScrapes the run's scrapes of the server's /metrics, ended before RunFinished, which
 *     then announces how many server-metrics records the run published ({@code
 *     server_metric_records}); null when the run does not scrape
 * @param startBarrier holds the schedule until every shard of a run of several is ready
 */
@RecordBuilder
public record GeneratorOptions(
        MeterRegistry meters,
        HttpClientSettings http,
        CompletionStage<?> stop,
        Duration drainTimeout,
        FirstTokenListener firstTokens,
        RunScrapes serverScrapes,
        StartBarrier startBarrier)
        implements GeneratorOptionsBuilder.With {

    /** How long an interrupted run lets its requests in flight finish, unless told otherwise. */
    static final Duration DEFAULT_DRAIN_TIMEOUT = Duration.ofSeconds(30);

    public GeneratorOptions {
        Objects.requireNonNull(meters, "meters");
        Objects.requireNonNull(http, "http");
        Objects.requireNonNull(stop, "stop");
        Objects.requireNonNull(drainTimeout, "drainTimeout");
        Objects.requireNonNull(firstTokens, "firstTokens");
        Objects.requireNonNull(startBarrier, "startBarrier");
    }

    /** Meters nobody reads, the default HTTP settings, no stop, a 30 s drain, no listener, no scrapes, no barrier. */
    public static GeneratorOptions defaults() {
        return new GeneratorOptions(
                new SimpleMeterRegistry(),
                HttpClientSettings.defaults(),
                new CompletableFuture<>(),
                DEFAULT_DRAIN_TIMEOUT,
                FirstTokenListener.NONE,
                null,
                StartBarrier.NONE);
    }
}
