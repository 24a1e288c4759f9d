package io.tokenpulse.producer.http;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.ScheduledFuture;
import java.nio.charset.StandardCharsets;

/** The state of the one request a {@link Connection} carries. Confined to its event loop. */
final class Exchange {

    final StreamListener listener;
    /** Last read, or the send while nothing was read yet: what the read-idle timeout counts from. */
    long lastReadNs;

    int status;
    boolean keepAlive = true;
    long bodyBytes;
    ScheduledFuture<?> requestTimer;
    ScheduledFuture<?> idleTimer;
    private final StringBuilder errorBody = new StringBuilder();

    Exchange(StreamListener listener, long startNs) {
        this.listener = listener;
        this.lastReadNs = startNs;
    }

    void sentAt(long sentNs) {
        lastReadNs = sentNs;
    }

    void keepErrorBody(ByteBuf content, int maxBytes) {
        int room = maxBytes - errorBody.length();
        if (room > 0) {
            errorBody.append(content.toString(
                    content.readerIndex(), Math.min(room, content.readableBytes()), StandardCharsets.UTF_8));
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
