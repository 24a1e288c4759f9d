package io.tokenpulse.producer.http;

import java.time.Duration;
import java.util.Objects;

/**
 * How the streaming client behaves.
 *
 * @param ioThreads          event loops reading all connections
 * @param connectTimeout     limit on opening one TCP connection
 * @param requestTimeout     limit on one whole request, from sent to the end of the response; zero for none
 * @param readIdleTimeout    limit on a silence while waiting for response bytes; zero for none
 * @param poolIdleTimeout    an idle pooled connection older than this is closed instead of reused:
 *                           servers close idle keep-alive connections (uvicorn, which vLLM runs on,
 *                           after 5 s), and a request written to such a connection would fail
 * @param maxErrorBodyBytes  bytes of a non-200 response's body kept in the error
 * @param insecureTls        {@code --insecure}: https connections check no certificate and no host name
 */
public record HttpClientSettings(
        int ioThreads,
        Duration connectTimeout,
        Duration requestTimeout,
        Duration readIdleTimeout,
        Duration poolIdleTimeout,
        int maxErrorBodyBytes,
        boolean insecureTls) {

    public HttpClientSettings {
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        Objects.requireNonNull(readIdleTimeout, "readIdleTimeout");
        Objects.requireNonNull(poolIdleTimeout, "poolIdleTimeout");
        if (ioThreads < 1) {
            throw new IllegalArgumentException("io threads must be >= 1, got " + ioThreads);
        }
        if (connectTimeout.isNegative() || connectTimeout.isZero() || connectTimeout.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(
                    "connect timeout must be positive and under 24 days, got " + connectTimeout);
        }
        if (requestTimeout.isNegative() || readIdleTimeout.isNegative() || poolIdleTimeout.isNegative()) {
            throw new IllegalArgumentException("timeouts must not be negative");
        }
        if (maxErrorBodyBytes < 0) {
            throw new IllegalArgumentException("max error body bytes must be >= 0, got " + maxErrorBodyBytes);
        }
    }

    /**
     * One event loop per core; a 6-hour request limit like vLLM's client (AIOHTTP_TIMEOUT), 10
     * minutes of silence (a long prefill under heavy load stays well below), 4 s of pool idleness.
     */
    public static HttpClientSettings defaults() {
        return new HttpClientSettings(
                Runtime.getRuntime().availableProcessors(),
                Duration.ofSeconds(30),
                Duration.ofHours(6),
                Duration.ofMinutes(10),
                Duration.ofSeconds(4),
                16 * 1024,
                false);
    }

    public HttpClientSettings withIoThreads(int threads) {
        return new HttpClientSettings(
                threads,
                connectTimeout,
                requestTimeout,
                readIdleTimeout,
                poolIdleTimeout,
                maxErrorBodyBytes,
                insecureTls);
    }

    public HttpClientSettings withTimeouts(Duration request, Duration readIdle) {
        return new HttpClientSettings(
                ioThreads, connectTimeout, request, readIdle, poolIdleTimeout, maxErrorBodyBytes, insecureTls);
    }

    /** These settings with https certificate and host name checks off ({@code insecure}) or on. */
    public HttpClientSettings withInsecureTls(boolean insecure) {
        return new HttpClientSettings(
                ioThreads,
                connectTimeout,
                requestTimeout,
                readIdleTimeout,
                poolIdleTimeout,
                maxErrorBodyBytes,
                insecure);
    }
}
