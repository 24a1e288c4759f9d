package io.tokenpulse.bench.httpclient;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The JDK's java.net.http.HttpClient over HTTP/1.1, body read through a BodySubscriber: the earliest
 * point its API shows bytes is onNext, after its selector thread handed them to the executor.
 */
final class JdkBenchClient implements BenchClient {

    private final ExecutorService executor;
    private final HttpClient client;

    JdkBenchClient(int threads) {
        AtomicInteger count = new AtomicInteger();
        executor = Executors.newFixedThreadPool(threads, r -> {
            Thread thread = new Thread(r, "jdk-http-worker-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .executor(executor)
                .build();
    }

    @Override
    public String name() {
        return "jdk";
    }

    @Override
    public String threadPrefix() {
        return "jdk-http-worker|HttpClient-";
    }

    @Override
    public CompletableFuture<String> stream(URI uri, String requestId, byte[] body, EventSplitter splitter) {
        HttpRequest request = HttpRequest.newBuilder(uri)
                .header("content-type", "application/json")
                .header("x-request-id", requestId)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
        Subscriber subscriber = new Subscriber(splitter);
        return client.sendAsync(request, HttpResponse.BodyHandlers.fromSubscriber(subscriber))
                .handle((response, error) -> {
                    if (error != null) {
                        return error.toString();
                    }
                    return response.statusCode() == 200 ? null : "HTTP " + response.statusCode();
                });
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }

    private static final class Subscriber implements Flow.Subscriber<List<ByteBuffer>> {
        private final EventSplitter splitter;

        Subscriber(EventSplitter splitter) {
            this.splitter = splitter;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> buffers) {
            long arrivalNs = System.nanoTime();
            for (ByteBuffer buffer : buffers) {
                splitter.feed(buffer, arrivalNs);
            }
        }

        @Override
        public void onError(Throwable throwable) {}

        @Override
        public void onComplete() {}
    }
}
