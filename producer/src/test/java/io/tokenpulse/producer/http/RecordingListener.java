package io.tokenpulse.producer.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** Keeps everything a request reported; {@link #done} completes with the error, or null on success. */
class RecordingListener implements StreamListener {

    final CompletableFuture<StreamError> done = new CompletableFuture<>();
    final List<Long> arrivalsNs = new ArrayList<>();
    final StringBuilder body = new StringBuilder();
    volatile long connectNs = -1;
    volatile long sentNs;
    volatile int status;
    volatile Map<String, String> headers = Map.of();

    @Override
    public void onConnected(long connectNs) {
        this.connectNs = connectNs;
    }

    @Override
    public void onRequestSent(long sentNs) {
        this.sentNs = sentNs;
    }

    @Override
    public void onResponseStart(int status, Map<String, String> headers) {
        this.status = status;
        this.headers = headers;
    }

    @Override
    public synchronized void onBytes(ByteBuffer bytes, long arrivalNs) {
        arrivalsNs.add(arrivalNs);
        body.append(StandardCharsets.UTF_8.decode(bytes));
    }

    @Override
    public void onComplete(long completedNs) {
        done.complete(null);
    }

    @Override
    public void onError(StreamError error) {
        done.complete(error);
    }
}
