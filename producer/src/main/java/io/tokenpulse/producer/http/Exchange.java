package io.tokenpulse.producer.http;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.ScheduledFuture;

import java.nio.charset.StandardCharsets;

/** The state of the one request a {@link Connection} carries. Confined to its event loop. */
final class Exchange {

    final StreamListener listener;
    final long sentNs;
    long lastReadNs;
    int status;
    boolean keepAlive = true;
    long bodyBytes;
    ScheduledFuture<?> requestTimer;
    ScheduledFuture<?> idleTimer;
    private final StringBuilder errorBody = new StringBuilder();

    Exchange(StreamListener listener, long sentNs) {
        this.listener = listener;
        this.sentNs = sentNs;
        this.lastReadNs = sentNs;
    }

    void keepErrorBody(ByteBuf content, int maxBytes) {
        int room = maxBytes - errorBody.length();
        if (room > 0) {
            errorBody.append(content.toString(content.readerIndex(), Math.min(room, content.readableBytes()), StandardCharsets.UTF_8));
        }
    }

    String errorBody() {
        return errorBody.toString();
    }

    void cancelTimers() {
        if (requestTimer != null) {
            requestTimer.cancel(false);
        }
        if (idleTimer != null) {
            idleTimer.cancel(false);
        }
    }
}
