package io.tokenpulse.producer;

import io.tokenpulse.producer.http.Tls;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Waits until the server answers {@code GET <base url>/health} with 200, as vLLM's mid-2025
 * benchmark_serving.py prints it ({@code Checking server health at ...}, {@code Server is ready!}). The JDK's client
 * suffices for a one-off poll outside any timing.
 */
final class HealthCheck {

    private static final Duration POLL_INTERVAL = Duration.ofSeconds(1);
    private static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(5);

    private HealthCheck() {}

    /**
     * @param insecure {@code --insecure}: accept any https certificate
     * @throws IllegalStateException with a one-line message naming the URL when the server is
     *     not ready within {@code timeout}, or at once when its https certificate is not trusted
     * @throws InterruptedException when interrupted while waiting
     */
    static void awaitReady(URI healthUrl, Duration timeout, boolean insecure, PrintStream out)
            throws InterruptedException {
        out.println("Checking server health at " + healthUrl);
        HttpClient client = HttpClient.newBuilder()
                .connectTimeout(ATTEMPT_TIMEOUT)
                .sslContext(Tls.jdkContext(insecure))
                .build();
        HttpRequest request =
                HttpRequest.newBuilder(healthUrl).timeout(ATTEMPT_TIMEOUT).GET().build();
        long deadlineNs = System.nanoTime() + timeout.toNanos();
        String last;
        while (true) {
            try {
                int status = client.send(request, HttpResponse.BodyHandlers.discarding())
                        .statusCode();
                if (status == 200) {
                    out.println("Server is ready!");
                    return;
                }
                last = "HTTP " + status;
            } catch (IOException e) {
                if (Tls.isCertificateFailure(e)) {
                    // waiting cannot help: the same certificate comes back on every attempt
                    throw new IllegalStateException(Tls.untrustedMessage(healthUrl.toString(), e));
                }
                last = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
            }
            long leftNs = deadlineNs - System.nanoTime();
            if (leftNs <= 0) {
                throw new IllegalStateException("the server at " + healthUrl + " was not ready within "
                        + timeout.toSeconds() + " s (last answer: " + last
                        + "); check --base-url or --host/--port and that the server is up");
            }
            Thread.sleep(Math.min(POLL_INTERVAL.toMillis(), Math.max(1, leftNs / 1_000_000)));
        }
    }
}
