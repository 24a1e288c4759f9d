package io.tokenpulse.bench.httpclient;

import java.net.URI;
import java.util.concurrent.CompletableFuture;

/** One streaming HTTP client under test. */
interface BenchClient extends AutoCloseable {

    String name();

    /** Name prefix of the client's own threads, to tell its CPU time from the server's. */
    String threadPrefix();

    /** Sends a streamed completion; completes with null on success or a failure reason. */
    CompletableFuture<String> stream(URI uri, String requestId, byte[] body, EventSplitter splitter);

    @Override
    void close();
}
