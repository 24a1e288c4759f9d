package io.tokenpulse.producer;

import io.tokenpulse.producer.backend.Backend;
import io.tokenpulse.producer.backend.RequestOutcome;
import io.tokenpulse.producer.console.VllmLines;
import io.tokenpulse.producer.dataset.SampledRequest;
import io.tokenpulse.producer.http.StreamingHttpClient;
import java.io.PrintStream;
import java.util.concurrent.ExecutionException;

/**
 * vLLM's initial single prompt test run, then its {@code --num-warmups} warm-up requests (the same
 * request), with vLLM's messages. Neither is counted nor published. Runs on the shard's thread,
 * before the schedule starts.
 */
final class TestRun {

    private TestRun() {}

    /**
     * Sends the test request and then the warm-ups; returns the test request's latency in
     * nanoseconds, which sizes the connection pool opened next.
     *
     * @param sample the run's first drawn request (dataset request 0)
     * @throws IllegalStateException when the test request fails (vLLM's message, with the error)
     * @throws InterruptedException when the thread is interrupted while waiting
     */
    static long run(
            StreamingHttpClient client, Backend backend, LoadSettings settings, SampledRequest sample, PrintStream out)
            throws InterruptedException {
        VllmLines.testRunStarting(out);
        long sentNs = System.nanoTime();
        ProbeRequest probe = new ProbeRequest(backend.newResponse());
        // vLLM sends the test request without a request id; one is required here, so it gets a
        // name that cannot be mistaken for a request index.
        client.send(
                StreamRequests.of(
                        backend,
                        settings.target().backendSettings(),
                        settings.requestIdPrefix() + "test",
                        sample,
                        null),
                probe);
        RequestOutcome outcome;
        try {
            outcome = probe.outcome().get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("the initial test run failed unexpectedly: " + e.getCause(), e.getCause());
        }
        long latencyNs = System.nanoTime() - sentNs;
        if (!outcome.success()) {
            throw new IllegalStateException(VllmLines.testRunFailed(outcome.error()));
        }
        int warmUps = settings.workload().numWarmups();
        VllmLines.testRunCompleted(warmUps, out);
        if (warmUps > 0) {
            WarmUp.run(
                    client,
                    backend,
                    i -> StreamRequests.of(
                            backend,
                            settings.target().backendSettings(),
                            settings.requestIdPrefix() + "warmup-" + i,
                            sample,
                            null),
                    warmUps,
                    settings.workload().maxConcurrency(),
                    settings.disableProgress(),
                    out);
        }
        return latencyNs;
    }
}
