package io.tokenpulse.bench.loadgen;

import org.HdrHistogram.Histogram;

/**
 * The numbers of one concurrency level, from the client's records read back from Kafka joined with
 * the simulator's send log on (x-request-id, event position).
 *
 * <ul>
 *   <li>timestamp error of an event = client arrival ({@code System.nanoTime()} on the read path,
 *       recovered from the chunk's {@code arrived_epoch_ns}) minus server send ({@code System.nanoTime()}
 *       just before the simulator's write) of the same event: wire, kernel, event loop and parser
 *       delay, i.e. what the client adds to every timestamp. First event: TTFT error; later ones:
 *       ITL error.</li>
 *   <li>gap error = |client gap − server gap| of consecutive events: the ITL sample's own error,
 *       needing no common clock.</li>
 *   <li>TTFT excess = client-observed TTFT (first arrival minus the client's {@code sent}) minus the
 *       server's intended TTFT: the above plus the request's way in (write, accept, parse).</li>
 *   <li>offered events/s = events the schedule intends (slot + TTFT + k·gap) inside the steady
 *       window [one request duration after the start, last slot], per second; achieved = chunk
 *       arrivals in the same window per second.</li>
 *   <li>CPU: cores busy (both processes when the simulator runs in its own) over the sending
 *       window; µs per event of the client's I/O threads, the Kafka producer's thread, the
 *       simulator (its threads, or its whole process incl. GC), and every other thread of this
 *       process (broker, registry; without GC and JIT, which are not Java threads); foreign =
 *       cores busy with other processes of the machine meanwhile (it is shared).</li>
 * </ul>
 */
record LevelResult(
        int streams,
        long failed,
        long chunksRead,
        long chunksExpected,
        long notDelivered,
        double offeredRps,
        double achievedRps,
        double offeredEps,
        double achievedEps,
        Histogram ttftErrorNs,
        Histogram itlErrorNs,
        Histogram gapErrorNs,
        Histogram ttftExcessNs,
        Histogram scheduleLagNs,
        Histogram serverLatenessNs,
        long missingServerRows,
        double cpuCores,
        double clientUsPerEvent,
        double producerUsPerEvent,
        double simulatorUsPerEvent,
        double otherUsPerEvent,
        double foreignCores,
        long clockDriftNs) {

    static Histogram histogram() {
        return new Histogram(3);
    }

    static double ms(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(percentile) / 1e6;
    }
}
