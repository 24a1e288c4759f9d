package io.tokenpulse.simulator;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/** Server-wide counters behind {@link ServerStats}; updated from every event loop. */
final class Counters {
    final LongAdder connectionsOpened = new LongAdder();
    final LongAdder requestsReceived = new LongAdder();
    final LongAdder requestsCompleted = new LongAdder();
    final LongAdder pipelinedRequests = new LongAdder();
    final LongAdder profileStarts = new LongAdder();
    final LongAdder profileStops = new LongAdder();
    private final AtomicInteger maxInFlightPerConnection = new AtomicInteger();

    void inFlightOnConnection(int inFlight) {
        maxInFlightPerConnection.accumulateAndGet(inFlight, Math::max);
    }

    ServerStats snapshot() {
        return new ServerStats(
                connectionsOpened.sum(),
                requestsReceived.sum(),
                requestsCompleted.sum(),
                pipelinedRequests.sum(),
                maxInFlightPerConnection.get(),
                profileStarts.sum(),
                profileStops.sum());
    }
}
