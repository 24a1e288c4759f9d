package io.tokenpulse.producer.http;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * Native epoll where available (Linux), NIO elsewhere: epoll wakes the read path without the JDK
 * selector's extra copies and garbage, and its timers are precise to microseconds.
 */
final class Transport {

    private Transport() {}

    static EventLoopGroup eventLoops(int threads) {
        DefaultThreadFactory factory = new DefaultThreadFactory("tp-http", true);
        return Epoll.isAvailable()
                ? new EpollEventLoopGroup(threads, factory)
                : new NioEventLoopGroup(threads, factory);
    }

    static Class<? extends SocketChannel> socketChannel() {
        return Epoll.isAvailable() ? EpollSocketChannel.class : NioSocketChannel.class;
    }
}
