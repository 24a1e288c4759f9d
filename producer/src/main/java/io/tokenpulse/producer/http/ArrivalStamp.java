package io.tokenpulse.producer.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * First handler of the pipeline: timestamps every socket read before HTTP decoding, so the arrival
 * time of streamed bytes excludes the codec's work. The decoder runs synchronously inside this
 * call, so {@link Connection} reads the stamp of the read that produced the bytes it sees.
 */
final class ArrivalStamp extends ChannelInboundHandlerAdapter {

    /** System.nanoTime() of the latest socket read. Confined to the channel's event loop. */
    long lastReadNs;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        lastReadNs = System.nanoTime();
        ctx.fireChannelRead(msg);
    }
}
