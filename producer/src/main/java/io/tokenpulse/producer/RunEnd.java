package io.tokenpulse.producer;

import io.tokenpulse.producer.publish.EventPublisher;
import io.tokenpulse.producer.publish.PublishCounts;
import io.tokenpulse.producer.scrape.RunScrapes;
import io.tokenpulse.schemas.avro.RunEvent;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The end of a shard's run, once every request ended: takes the last server scrape, waits for Kafka
 * to take what it was given, publishes RunFinished with the counts (retried, because without it the
 * run has no summary) and returns the shard's {@link LoadResult}.
 *
 * <p>Threading: the shard's own thread, after sending; a stop no longer interrupts it.
 */
final class RunEnd {

    /** How long the end of a run waits for Kafka to acknowledge what it was given. */
    static final Duration FLUSH_TIMEOUT = Duration.ofSeconds(30);
    /** How much longer the end of a run waits while records kept on disk wait for Kafka to come back. */
    static final Duration SPOOL_WAIT = Duration.ofMinutes(10);

    private static final Logger LOG = LoggerFactory.getLogger(RunEnd.class);

    /**
     * What the send phase of a run leaves for its result.
     *
     * @param interrupted stopped before the schedule's end
     * @param sendLagP99Ms P99 of how late the client itself sent requests ({@link ClientLag}), ms
     * @param ioThreadBusy the busiest HTTP I/O thread's CPU share of the sending's wall time, 0..1
     * @param warmConnections connections open in the pool when the schedule started
     */
    record Sending(boolean interrupted, double sendLagP99Ms, double ioThreadBusy, int warmConnections) {}

    private final EventPublisher publisher;
    private final PrintStream out;
    private final LoadSettings settings;
    /** The run's scrapes of the server's /metrics; null when not scraping. */
    private final RunScrapes scrapes;

    RunEnd(EventPublisher publisher, PrintStream out, LoadSettings settings, RunScrapes scrapes) {
        this.publisher = publisher;
        this.out = out;
        this.settings = settings;
        this.scrapes = scrapes;
    }

    /**
     * Publishes RunFinished and returns the shard's counts.
     *
     * @param started the delivery of the run's RunStarted
     */
    LoadResult finish(Anchor anchor, CompletableFuture<Void> started, RunTally tally, Sending sending) {
        long lastNs = tally.lastFinishedNs(anchor.startNs());
        RunTally.Counts counts = tally.counts();
        // the last scrape first: the delivery wait below covers its records, RunFinished counts them
        Long serverMetricRecords = scrapes == null ? null : scrapes.finish();
        RunEvent finished = RunRecords.finished(
                settings, anchor, lastNs, counts, awaitDelivery(), sending.interrupted(), serverMetricRecords);
        List<String> lost = new ArrayList<>();
        undelivered("RunStarted", started).ifPresent(lost::add);
        undelivered("RunFinished", deliverRunFinished(finished)).ifPresent(lost::add);
        PublishCounts delivery = publisher.flush(FLUSH_TIMEOUT);
        if (delivery.notDelivered() > 0) {
            LOG.warn(
                    "run {}: {} records were not delivered to Kafka: {}",
                    settings.runId(),
                    delivery.notDelivered(),
                    delivery.notDeliveredByReason());
        }
        if (delivery.spooled() > 0) {
            out.printf(
                    "%d records Kafka did not take stay in %s; once Kafka is back, publish them with:"
                            + " ./tokenpulse publish-spool %s --bootstrap-servers HOST:PORT%n",
                    delivery.spooled(), publisher.spoolDir(), publisher.spoolDir());
        }
        return new LoadResult(
                counts.started(),
                counts.succeeded(),
                counts.failed(),
                counts.chunkEvents(),
                delivery.notDelivered(),
                delivery.notDeliveredByReason(),
                lost,
                sortedByCount(counts.failureReasons()),
                anchor.startEpochNs(),
                anchor.offsetNs(lastNs),
                sending.interrupted(),
                sending.sendLagP99Ms(),
                sending.ioThreadBusy(),
                settings.workload().numWarmups(),
                sending.warmConnections());
    }

    /**
     * Waits for Kafka to take what it was given; while records wait in the spool for Kafka to come
     * back, up to {@link #SPOOL_WAIT} longer, so that RunFinished counts only what is really lost.
     */
    private PublishCounts awaitDelivery() {
        PublishCounts counts = publisher.flush(FLUSH_TIMEOUT);
        if (counts.spooled() > 0) {
            out.printf(
                    "Waiting up to %d s for Kafka to take the %d records kept on disk while it was away...%n",
                    SPOOL_WAIT.toSeconds(), counts.spooled());
            counts = publisher.flush(SPOOL_WAIT);
        }
        return counts;
    }

    /**
     * Publishes RunFinished and waits for Kafka to take it; a failed attempt is tried again while
     * {@link #FLUSH_TIMEOUT} lasts, because without this record the run has no summary. (A retry
     * after a lost acknowledgement may write it twice; the aggregator keeps one per shard.)
     */
    private CompletableFuture<Void> deliverRunFinished(RunEvent finished) {
        long deadlineNs = System.nanoTime() + FLUSH_TIMEOUT.toNanos();
        while (true) {
            CompletableFuture<Void> delivery = publisher.publishRun(finished, FLUSH_TIMEOUT);
            try {
                delivery.get(Math.max(0, deadlineNs - System.nanoTime()), TimeUnit.NANOSECONDS);
                return delivery;
            } catch (ExecutionException e) {
                if (System.nanoTime() > deadlineNs || Thread.currentThread().isInterrupted()) {
                    return delivery;
                }
                LOG.warn(
                        "the run's RunFinished record was not delivered to Kafka ({}); trying again",
                        e.getCause().getMessage());
            } catch (TimeoutException e) {
                return delivery;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return delivery;
            }
        }
    }

    /** "NAME (reason)" when the record's delivery failed or has not completed. */
    private static Optional<String> undelivered(String name, CompletableFuture<Void> delivery) {
        if (!delivery.isDone()) {
            return Optional.of(name + " (no acknowledgement from Kafka within " + FLUSH_TIMEOUT.toSeconds() + " s)");
        }
        if (delivery.isCompletedExceptionally()) {
            return Optional.of(name + " ("
                    + delivery.handle((ok, error) -> error.getMessage()).join() + ")");
        }
        return Optional.empty();
    }

    private static Map<String, Long> sortedByCount(Map<String, Long> reasons) {
        Map<String, Long> sorted = new LinkedHashMap<>();
        reasons.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return sorted;
    }
}
