package io.tokenpulse.producer;

import io.netty.buffer.ByteBuf;
import io.tokenpulse.producer.http.StreamListener;

/** What Connection.channelRead hands the listener for one HTTP content's bytes. */
final class Feed {
    private Feed() {}

    static void bytes(StreamListener listener, ByteBuf content, long arrivalNs) {
        listener.onBytes(content.nioBuffer(), arrivalNs);
    }
}
