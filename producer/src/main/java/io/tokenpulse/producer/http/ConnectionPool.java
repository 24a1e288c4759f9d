package io.tokenpulse.producer.http;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.group.ChannelGroup;
import io.netty.handler.codec.http.HttpClientCodec;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.function.BooleanSupplier;

/**
 * The connections to one origin. A request takes an idle connection or, when none is idle, opens a
 * new one (timed as its connect); there is no upper limit, since the caller's concurrency limit
 * already bounds the requests in flight.
 *
 * <p>Threading: safe for any thread; connections themselves run on their event loops.
 */
final class ConnectionPool {

    private final Origin origin;
    private final HttpClientSettings settings;
    private final Bootstrap bootstrap;
    private final BooleanSupplier closing;
    /** Most recently used first, so that rarely needed connections age out of the pool. */
    private final ConcurrentLinkedDeque<Connection> idle = new ConcurrentLinkedDeque<>();

    /** @param channels every connection joins it, so closing the client reaches requests in flight too */
    ConnectionPool(
            Origin origin,
            HttpClientSettings settings,
            Bootstrap template,
            BooleanSupplier closing,
            ChannelGroup channels) {
        this.origin = origin;
        this.settings = settings;
        this.closing = closing;
        this.bootstrap = template.clone().handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                channels.add(ch);
                ArrivalStamp stamp = new ArrivalStamp();
                ch.pipeline().addLast(stamp, new HttpClientCodec(), new Connection(ConnectionPool.this, stamp));
            }
        });
    }

    Origin origin() {
        return origin;
    }

    HttpClientSettings settings() {
        return settings;
    }

    boolean isClosing() {
        return closing.getAsBoolean();
    }

    void send(StreamRequest request, StreamListener listener) {
        Connection reused = pollIdle();
        if (reused != null) {
            reused.channel().eventLoop().execute(() -> {
                if (reused.channel().isActive()) {
                    reused.start(request, listener, 0);
                } else {
                    send(request, listener); // closed by the server meanwhile: take another
                }
            });
            return;
        }
        long connectStartNs = System.nanoTime();
        connect().addListener((ChannelFuture connect) -> {
            if (!connect.isSuccess()) {
                listener.onError(StreamError.of(
                        StreamError.Kind.CONNECT_FAILED,
                        "cannot connect to " + origin + ": " + connect.cause().getMessage()));
                return;
            }
            long connectNs = System.nanoTime() - connectStartNs;
            connect.channel().pipeline().get(Connection.class).start(request, listener, connectNs);
        });
    }

    /** Opens one connection and parks it idle in the pool. */
    CompletableFuture<Void> openIdle() {
        CompletableFuture<Void> opened = new CompletableFuture<>();
        connect().addListener((ChannelFuture connect) -> {
            if (connect.isSuccess()) {
                release(connect.channel().pipeline().get(Connection.class));
                opened.complete(null);
            } else {
                opened.completeExceptionally(connect.cause());
            }
        });
        return opened;
    }

    void release(Connection connection) {
        connection.idleSinceNs = System.nanoTime();
        idle.offerFirst(connection);
    }

    void remove(Connection connection) {
        idle.remove(connection);
    }

    int idleCount() {
        return idle.size();
    }

    private Connection pollIdle() {
        long expiredBeforeNs = System.nanoTime() - settings.poolIdleTimeout().toNanos();
        Connection connection;
        while ((connection = idle.pollFirst()) != null) {
            boolean fresh = settings.poolIdleTimeout().isZero() || connection.idleSinceNs > expiredBeforeNs;
            if (fresh && connection.channel().isActive()) {
                return connection;
            }
            connection.channel().close();
        }
        return null;
    }

    private ChannelFuture connect() {
        return bootstrap.connect(origin.host(), origin.port());
    }
}
