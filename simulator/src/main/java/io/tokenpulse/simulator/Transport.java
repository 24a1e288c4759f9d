package io.tokenpulse.simulator;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * Native epoll where available, NIO elsewhere. Epoll matters for timing: its timerfd lets scheduled
 * tokens fire within microseconds of their deadline, while NIO's selector rounds every timer up to
 * the next whole millisecond.
 */
final class Transport {

    private Transport() {}

    static EventLoopGroup eventLoops(int threads, String name) {
        DefaultThreadFactory factory = new DefaultThreadFactory(name, true);
        return Epoll.isAvailable()
                ? new EpollEventLoopGroup(threads, factory)
                : new NioEventLoopGroup(threads, factory);
    }

    static Class<? extends ServerSocketChannel> serverChannel() {
        return Epoll.isAvailable() ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }
}
