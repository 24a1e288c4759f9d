package io.tokenpulse.producer;

/**
 * A shard's clock against the broker's, from one record the shard wrote: the broker stamped it
 * ({@code LogAppendTime}) at some instant between the shard's send and its acknowledgement, so the
 * shard's clock minus the broker's lies within half the round trip of the midpoint's difference, give
 * or take the millisecond that Kafka's timestamps are rounded to (NTP's measure, with one exchange).
 *
 * @param offsetMs      the shard's clock minus the broker's, ms (positive: the shard's clock is ahead)
 * @param uncertaintyMs how far {@code offsetMs} may be from the true offset, ms
 */
public record ClockOffset(double offsetMs, double uncertaintyMs) {

    /** Kafka's timestamps are whole milliseconds: each of the three readings may be off by up to one. */
    private static final double RESOLUTION_MS = 1;

    /**
     * @param sentMs    the shard's clock just before it sent the record, ms since the epoch
     * @param ackedMs   the shard's clock when the broker acknowledged it, ms since the epoch
     * @param brokerMs  the broker's LogAppendTime of the record, ms since the epoch
     */
    public static ClockOffset measured(long sentMs, long ackedMs, long brokerMs) {
        if (ackedMs < sentMs) {
            throw new IllegalArgumentException("acknowledged at " + ackedMs + " ms, before it was sent at " + sentMs);
        }
        double midpointMs = (sentMs + ackedMs) / 2.0;
        return new ClockOffset(midpointMs - brokerMs, (ackedMs - sentMs) / 2.0 + RESOLUTION_MS);
    }

    /** The broker's instant {@code brokerMs} on this shard's clock, ms since the epoch. */
    public long onShardClock(long brokerMs) {
        return brokerMs + Math.round(offsetMs);
    }
}
