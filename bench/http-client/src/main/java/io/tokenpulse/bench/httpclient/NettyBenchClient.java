package io.tokenpulse.bench.httpclient;

import io.tokenpulse.producer.http.HttpClientSettings;
import io.tokenpulse.producer.http.StreamError;
import io.tokenpulse.producer.http.StreamListener;
import io.tokenpulse.producer.http.StreamRequest;
import io.tokenpulse.producer.http.StreamingHttpClient;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** The project's client: Netty, own pool, arrival stamped in the channel pipeline. */
final class NettyBenchClient implements BenchClient {

    private final StreamingHttpClient client;

    NettyBenchClient(int ioThreads) {
        client = new StreamingHttpClient(HttpClientSettings.defaults().withIoThreads(ioThreads));
    }

    @Override
    public String name() {
        return "netty";
    }

    @Override
    public String threadPrefix() {
        return "tp-http";
    }

    @Override
    public CompletableFuture<String> stream(URI uri, String requestId, byte[] body, EventSplitter splitter) {
        CompletableFuture<String> done = new CompletableFuture<>();
        client.send(new StreamRequest(uri, Map.of("x-request-id", requestId), body), new StreamListener() {
            @Override
            public void onBytes(ByteBuffer bytes, long arrivalNs) {
                splitter.feed(bytes, arrivalNs);
            }

            @Override
            public void onComplete(long completedNs) {
                done.complete(null);
            }

            @Override
            public void onError(StreamError error) {
                done.complete(error.reason());
            }
        });
        return done;
    }

    @Override
    public void close() {
        client.close();
    }
}
