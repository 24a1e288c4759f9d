package io.tokenpulse.producer.health;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.tokenpulse.producer.publish.DeliveryFailure;
import io.tokenpulse.producer.publish.PublishCounts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The load generator's own health as Micrometer meters, tagged {@code run_id}, {@code model},
 * {@code backend}, {@code shard} (the same run tags as the aggregator's series, so one dashboard
 * filter fits both). Prometheus names as scraped:
 * <ul>
 *   <li>{@code tokenpulse_client_schedule_lag_seconds} histogram: sent minus scheduled per request
 *       (docs/metrics.md, queue delay); under {@code --max-concurrency} it includes the permit wait;
 *   <li>{@code tokenpulse_client_requests_in_flight}, {@code tokenpulse_client_requests_sent_total};
 *   <li>{@code tokenpulse_client_connections_opened_total} and {@code tokenpulse_client_connect_seconds}
 *       (time to open each new connection; reused ones are not counted);
 *   <li>{@code tokenpulse_client_chunk_events_total}: chunk records handed to Kafka;
 *   <li>from the publisher's counts at each scrape: {@code tokenpulse_client_records_published_total},
 *       {@code tokenpulse_client_records_delivered_total},
 *       {@code tokenpulse_client_records_failed_total{reason}}, {@code tokenpulse_client_records_queued}
 *       (handed over, neither acknowledged nor failed yet), {@code tokenpulse_client_records_spooled}
 *       (of those, kept on disk while Kafka is away) and
 *       {@code tokenpulse_client_records_not_delivered} (failed + queued, as RunFinished reports it).
 * </ul>
 * Threading: every method may be called from any thread (scheduler, I/O threads) and only
 * touches atomics and Micrometer's lock-free counters; none blocks.
 */
public final class ClientHealth implements AutoCloseable {
    /** Lateness spans 100 µs to 15 min: a saturated client can fall minutes behind. */
    private static final Duration MIN_EXPECTED = Duration.ofNanos(100_000);

    private static final Duration MAX_EXPECTED = Duration.ofMinutes(15);

    private final MeterRegistry registry;
    /**
     * Held here because Micrometer's gauges and function counters keep only a weak reference to
     * what they read: without it a garbage collection turns the publisher gauges into NaN and
     * freezes the publisher counters while the run goes on.
     */
    private final Supplier<PublishCounts> counts;

    private final List<Meter> meters = new ArrayList<>();
    private final AtomicLong inFlight = new AtomicLong();
    private final Timer scheduleLag;
    private final Timer connect;
    private final Counter sent;
    private final Counter connectionsOpened;
    private final Counter chunkEvents;

    private ClientHealth(MeterRegistry registry, Tags tags, Supplier<PublishCounts> counts) {
        this.registry = registry;
        this.counts = counts;
        scheduleLag = add(Timer.builder("tokenpulse.client.schedule.lag")
                .tags(tags)
                .description("How late requests were sent after their scheduled time")
                .publishPercentileHistogram()
                .minimumExpectedValue(MIN_EXPECTED)
                .maximumExpectedValue(MAX_EXPECTED)
                .register(registry));
        connect = add(Timer.builder("tokenpulse.client.connect")
                .tags(tags)
                .description("Time to open a new connection")
                .publishPercentileHistogram()
                .minimumExpectedValue(MIN_EXPECTED)
                .maximumExpectedValue(Duration.ofMinutes(1))
                .register(registry));
        sent = add(Counter.builder("tokenpulse.client.requests.sent")
                .tags(tags)
                .description("Requests handed to the HTTP client")
                .register(registry));
        connectionsOpened = add(Counter.builder("tokenpulse.client.connections.opened")
                .tags(tags)
                .description("New connections opened (not reused from the pool)")
                .register(registry));
        chunkEvents = add(Counter.builder("tokenpulse.client.chunk.events")
                .tags(tags)
                .description("Chunk records handed to Kafka")
                .register(registry));
        add(Gauge.builder("tokenpulse.client.requests.in.flight", inFlight, AtomicLong::get)
                .tags(tags)
                .description("Requests sent and not finished")
                .register(registry));
        add(FunctionCounter.builder(
                        "tokenpulse.client.records.published",
                        counts,
                        c -> c.get().published())
                .tags(tags)
                .description("Records handed to the Kafka producer")
                .register(registry));
        add(FunctionCounter.builder(
                        "tokenpulse.client.records.delivered",
                        counts,
                        c -> c.get().delivered())
                .tags(tags)
                .description("Records Kafka acknowledged")
                .register(registry));
        for (DeliveryFailure reason : DeliveryFailure.values()) {
            add(FunctionCounter.builder(
                            "tokenpulse.client.records.failed",
                            counts,
                            c -> c.get().failed().getOrDefault(reason, 0L))
                    .tags(tags)
                    .tag("reason", reason.name().toLowerCase())
                    .description("Records that will never reach Kafka, by reason")
                    .register(registry));
        }
        add(Gauge.builder(
                        "tokenpulse.client.records.queued", counts, c -> c.get().pending())
                .tags(tags)
                .description("Records handed over, neither acknowledged nor failed yet")
                .register(registry));
        add(Gauge.builder(
                        "tokenpulse.client.records.spooled",
                        counts,
                        c -> c.get().spooled())
                .tags(tags)
                .description("Of the queued records, those kept on disk while Kafka is away")
                .register(registry));
        add(Gauge.builder(
                        "tokenpulse.client.records.not.delivered",
                        counts,
                        c -> c.get().notDelivered())
                .tags(tags)
                .description("Records failed or still queued")
                .register(registry));
    }

    /**
     * Registers one shard's meters.
     *
     * @param counts the publisher's counts, read at each scrape, e.g. {@code publisher::counts}
     */
    public static ClientHealth register(
            MeterRegistry registry,
            String runId,
            String model,
            String backend,
            int shardIndex,
            Supplier<PublishCounts> counts) {
        if (shardIndex < 0) {
            throw new IllegalArgumentException("shard index must be >= 0, got " + shardIndex);
        }
        Tags tags = Tags.of("run_id", runId, "model", model, "backend", backend, "shard", Integer.toString(shardIndex));
        return new ClientHealth(registry, tags, counts);
    }

    private <M extends Meter> M add(M meter) {
        meters.add(meter);
        return meter;
    }

    /**
     * A request was handed to the HTTP client.
     *
     * @param scheduledNs its slot in the arrival schedule, {@code System.nanoTime()} clock
     * @param sentNs when it was handed over, same clock
     */
    public void requestSent(long scheduledNs, long sentNs) {
        sent.increment();
        inFlight.incrementAndGet();
        scheduleLag.record(Math.max(0, sentNs - scheduledNs), TimeUnit.NANOSECONDS);
    }

    /** A request sent with {@link #requestSent} ended, successfully or not. */
    public void requestFinished() {
        inFlight.decrementAndGet();
    }

    /** A new connection was opened for a request in {@code connectNs}; call nothing for a reused one. */
    public void connectionOpened(long connectNs) {
        connectionsOpened.increment();
        connect.record(connectNs, TimeUnit.NANOSECONDS);
    }

    /** A chunk record was handed to the publisher. */
    public void chunkPublished() {
        chunkEvents.increment();
    }

    /** Removes this shard's meters from the registry (call after the last scrape that should see them). */
    @Override
    public void close() {
        meters.forEach(registry::remove);
    }
}
