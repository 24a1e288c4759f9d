package io.tokenpulse.producer;

import io.tokenpulse.producer.http.Tls;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.InetAddress;
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
        Wait wait = new Wait(healthUrl, timeout, System.nanoTime());
        while (true) {
            String answer;
            boolean refused = false;
            try {
                int status = client.send(request, HttpResponse.BodyHandlers.discarding())
                        .statusCode();
                if (status == 200) {
                    out.println("Server is ready!");
                    return;
                }
                answer = "HTTP " + status;
            } catch (IOException e) {
                if (Tls.isCertificateFailure(e)) {
                    // waiting cannot help: the same certificate comes back on every attempt
                    throw new IllegalStateException(Tls.untrustedMessage(healthUrl.toString(), e));
                }
                refused = e instanceof ConnectException;
                answer = refused
                        ? "connection refused"
                        : e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
            }
            long nowNs = System.nanoTime();
            wait.answered(answer, refused, nowNs).ifPresent(out::println);
            long leftNs = wait.leftNs(nowNs);
            if (leftNs <= 0) {
                throw new IllegalStateException("the server at " + healthUrl + " was not ready within "
                        + timeout.toSeconds() + " s (last answer: " + answer
                        + "); check --base-url or --host/--port and that the server is up");
            }
            Thread.sleep(Math.min(POLL_INTERVAL.toMillis(), Math.max(1, leftNs / 1_000_000)));
        }
    }

    /**
     * What a wait has seen so far, and what it says about it: a progress line every
     * {@link #PROGRESS_EVERY}, and a one-line failure when a loopback address refused every connection
     * for {@link #REFUSED_LIMIT} under the default timeout (nothing is listening there: the common
     * mistake is a server not started, or another port). A timeout the user chose is waited in full,
     * for servers that bind their port only once the model is loaded. Not thread-safe; times in
     * {@code System.nanoTime()} nanoseconds.
     */
    static final class Wait {
        static final Duration PROGRESS_EVERY = Duration.ofSeconds(10);
        static final Duration REFUSED_LIMIT = Duration.ofSeconds(30);

        private final URI healthUrl;
        private final Duration timeout;
        private final long startNs;
        private final boolean failFast;
        private long nextProgressNs;
        private long refusedSinceNs = -1;
        private int attempts;

        Wait(URI healthUrl, Duration timeout, long startNs) {
            this.healthUrl = healthUrl;
            this.timeout = timeout;
            this.startNs = startNs;
            this.failFast = timeout.equals(LoadSettings.DEFAULT_READINESS_TIMEOUT) && isLoopback(healthUrl);
            this.nextProgressNs = startNs + PROGRESS_EVERY.toNanos();
        }

        /**
         * Records one attempt's answer at {@code nowNs}: the progress line to print, if one is due.
         *
         * @throws IllegalStateException with the one-line failure and its fix when a loopback address
         *     refused connections for {@link #REFUSED_LIMIT} under the default timeout
         */
        java.util.Optional<String> answered(String answer, boolean refused, long nowNs) {
            attempts++;
            if (!refused) {
                refusedSinceNs = -1;
            } else if (refusedSinceNs < 0) {
                refusedSinceNs = nowNs;
            }
            if (failFast && refusedSinceNs >= 0 && nowNs - refusedSinceNs >= REFUSED_LIMIT.toNanos()) {
                throw new IllegalStateException("nothing is listening at " + healthUrl.getHost() + ":" + port(healthUrl)
                        + " (connection refused for " + REFUSED_LIMIT.toSeconds() + " s): start the server, or point"
                        + " --base-url (or --host/--port) at the one running; a server that opens its port late"
                        + " needs --ready-check-timeout-sec SECONDS");
            }
            if (nowNs < nextProgressNs) {
                return java.util.Optional.empty();
            }
            while (nextProgressNs <= nowNs) {
                nextProgressNs += PROGRESS_EVERY.toNanos();
            }
            long waitedS = (nowNs - startNs) / 1_000_000_000L;
            long leftS = Math.max(0, leftNs(nowNs) / 1_000_000_000L);
            return java.util.Optional.of("Still waiting for " + healthUrl + ": " + attempts + " tries in " + waitedS
                    + " s, last answer: " + answer + "; " + leftS + " s left (--ready-check-timeout-sec "
                    + timeout.toSeconds() + ")");
        }

        long leftNs(long nowNs) {
            return startNs + timeout.toNanos() - nowNs;
        }

        private static boolean isLoopback(URI url) {
            String host = url.getHost();
            if (host == null) {
                return false;
            }
            if (host.equals("localhost")) {
                return true;
            }
            try {
                // a literal address only: no lookup of a name while deciding
                return (host.matches("[0-9.]+") || host.startsWith("["))
                        && InetAddress.getByName(host).isLoopbackAddress();
            } catch (java.net.UnknownHostException e) {
                return false;
            }
        }

        private static int port(URI url) {
            if (url.getPort() >= 0) {
                return url.getPort();
            }
            return "https".equalsIgnoreCase(url.getScheme()) ? 443 : 80;
        }
    }
}
