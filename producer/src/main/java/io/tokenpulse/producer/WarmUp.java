package io.tokenpulse.producer;

import io.tokenpulse.producer.backend.Backend;
import io.tokenpulse.producer.backend.RequestOutcome;
import io.tokenpulse.producer.console.Progress;
import io.tokenpulse.producer.console.VllmLines;
import io.tokenpulse.producer.http.StreamRequest;
import io.tokenpulse.producer.http.StreamingHttpClient;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.function.IntFunction;

/**
 * vLLM's warm-up ({@code --num-warmups N}): after the initial test run, N copies of the test request,
 * at most {@code --max-concurrency} at a time, all awaited before the timed run starts. Their outcome
 * changes nothing (vLLM ignores it too): they are read by {@link ProbeRequest}s, which publish no
 * record, so no warm-up chunk can reach the run's scoring. Failures are counted and shown in one line.
 */
final class WarmUp {

    private WarmUp() {}

    /**
     * Sends the warm-up requests and waits for all of them, printing vLLM's lines and a progress bar.
     *
     * @param request the request of warm-up {@code i}
     * @return how many failed
     */
    static int run(
            StreamingHttpClient client,
            Backend backend,
            IntFunction<StreamRequest> request,
            int count,
            Integer maxConcurrency,
            boolean disableProgress,
            PrintStream out)
            throws InterruptedException {
        VllmLines.warmUpStarting(count, out);
        Semaphore permits = new Semaphore(maxConcurrency == null ? count : maxConcurrency);
        List<CompletableFuture<RequestOutcome>> outcomes = new ArrayList<>(count);
        try (Progress progress = Progress.start(out, count, disableProgress)) {
            for (int i = 0; i < count; i++) {
                permits.acquire();
                ProbeRequest probe = new ProbeRequest(backend.newResponse());
                outcomes.add(probe.outcome().whenComplete((outcome, error) -> {
                    permits.release();
                    progress.step();
                }));
                client.send(request.apply(i), probe);
            }
            CompletableFuture.allOf(outcomes.toArray(CompletableFuture[]::new)).join();
        }
        List<String> failures = outcomes.stream()
                .map(CompletableFuture::join)
                .filter(o -> !o.success())
                .map(RequestOutcome::error)
                .toList();
        VllmLines.warmUpCompleted(out);
        if (!failures.isEmpty()) {
            out.println("Warning: " + failures.size() + " of " + count + " warm-up requests failed (first: "
                    + failures.get(0) + ")");
        }
        return failures.size();
    }
}
