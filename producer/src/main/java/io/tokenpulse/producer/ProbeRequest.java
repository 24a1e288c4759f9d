package io.tokenpulse.producer;

import io.tokenpulse.producer.backend.RequestOutcome;
import io.tokenpulse.producer.backend.ResponseTracker;
import java.util.concurrent.CompletableFuture;

/**
 * The initial single-prompt test run: a request read like any other whose outcome only decides
 * whether the run starts. It publishes nothing and counts nowhere.
 */
final class ProbeRequest extends StreamReader {

    private final CompletableFuture<RequestOutcome> outcome = new CompletableFuture<>();

    ProbeRequest(ResponseTracker tracker) {
        super(tracker);
    }

    CompletableFuture<RequestOutcome> outcome() {
        return outcome;
    }

    @Override
    void responseStarted() {}

    @Override
    void chunk(ResponseTracker.Step step, long arrivalNs, int bytes) {}

    @Override
    void ended(RequestOutcome result, long endNs) {
        outcome.complete(result);
    }
}
