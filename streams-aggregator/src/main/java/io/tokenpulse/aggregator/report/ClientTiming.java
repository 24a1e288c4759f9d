package io.tokenpulse.aggregator.report;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Locale;
import java.util.Optional;

/**
 * How the client started and whether it kept up with its own schedule (issue 14): TokenPulse's own
 * result keys and lines after the block. A run whose client was the bottleneck measured the client,
 * not the server, so it says so in one warning line and in {@code client_limited}.
 *
 * @param clientWarmupRequests {@code --num-warmups} requests sent before the clock started
 * @param clientWarmConnections connections open before the clock started (none are opened within
 *                            TTFT then; more connect during the run when needed, timed apart)
 * @param clientSendLagP99Ms  P99 of how late the client sent requests, beyond any wait for a
 *                            {@code --max-concurrency} slot, in ms
 * @param clientIoThreadBusy  the busiest HTTP I/O thread's CPU share of the run (0..1)
 * @param clientLimited       either is over its bound ({@link #MAX_SEND_LAG_P99_MS}, {@link #MAX_IO_THREAD_BUSY});
 *                            the send lag only counts from {@link #MIN_REQUESTS_FOR_LAG} requests on
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ClientTiming(
        int clientWarmupRequests,
        int clientWarmConnections,
        double clientSendLagP99Ms,
        double clientIoThreadBusy,
        boolean clientLimited) {

    /** Above this the schedule itself was not kept: the bound. */
    public static final double MAX_SEND_LAG_P99_MS = 10;

    /**
     * Below this many requests the P99 send lag is about the slowest single send, typically the first,
     * cold one: printed, but no verdict on the client.
     */
    public static final int MIN_REQUESTS_FOR_LAG = 100;

    /** An I/O thread busy this much of the time queues the bytes it should be timing. */
    public static final double MAX_IO_THREAD_BUSY = 0.9;

    /**
     * The verdict from the two measurements (NaN ones never count against the client).
     *
     * @param sentRequests requests the schedule sent: the send lag's sample count
     */
    public static ClientTiming of(
            int warmupRequests, int warmConnections, double sendLagP99Ms, long sentRequests, double ioThreadBusy) {
        boolean lagging = sentRequests >= MIN_REQUESTS_FOR_LAG && sendLagP99Ms > MAX_SEND_LAG_P99_MS;
        return new ClientTiming(
                warmupRequests,
                warmConnections,
                sendLagP99Ms,
                ioThreadBusy,
                lagging || ioThreadBusy > MAX_IO_THREAD_BUSY);
    }

    /** The lines printed after the block, in its layout. */
    public String lines() {
        StringBuilder text = new StringBuilder();
        ConsoleReport.integer(text, "Client warm-up requests:", clientWarmupRequests);
        ConsoleReport.integer(text, "Client warm connections at start:", clientWarmConnections);
        ConsoleReport.decimal(text, "Client send lag P99 (ms):", clientSendLagP99Ms);
        ConsoleReport.decimal(text, "Client busiest I/O thread (share):", clientIoThreadBusy);
        return text.toString();
    }

    /** The warning when the client was the bottleneck, else empty. */
    @JsonIgnore
    public Optional<String> warning() {
        if (!clientLimited) {
            return Optional.empty();
        }
        return Optional.of(String.format(
                Locale.ROOT,
                "Warning: the client was the bottleneck (send lag P99 %.2f ms, bound %.0f ms; busiest I/O thread"
                        + " %.0f %% busy, bound %.0f %%): the figures above measured the client as well as the"
                        + " server. Give it more cores, fewer streams, or shard it (--shard-count).",
                clientSendLagP99Ms,
                MAX_SEND_LAG_P99_MS,
                100 * clientIoThreadBusy,
                100 * MAX_IO_THREAD_BUSY));
    }
}
