package io.tokenpulse.producer.http;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.group.ChannelGroup;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.function.BooleanSupplier;
import javax.net.ssl.SSLParameters;

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
        SslContext tls = origin.tls() ? Tls.nettyContext(settings.insecureTls()) : null;
        this.bootstrap = template.clone().handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                channels.add(ch);
                ArrivalStamp stamp = new ArrivalStamp();
                // The stamp stays first: it times the socket read, and TLS decrypts inside that call.
                ch.pipeline().addLast(stamp);
                if (tls != null) {
                    ch.pipeline().addLast(sslHandler(tls, ch));
                }
                ch.pipeline().addLast(new HttpClientCodec(), new Connection(ConnectionPool.this, stamp));
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
        connect().addListener((Future<Channel> connect) -> {
            if (!connect.isSuccess()) {
                // a connect cut short by the client's close is a cancellation, not the server's fault
                listener.onError(
                        closing.getAsBoolean()
                                ? StreamError.of(StreamError.Kind.CLIENT_CLOSED, StreamError.CLOSED_IN_FLIGHT)
                                : StreamError.of(
                                        StreamError.Kind.CONNECT_FAILED,
                                        "cannot connect to " + origin + ": "
                                                + connect.cause().getMessage()));
                return;
            }
            long connectNs = System.nanoTime() - connectStartNs;
            connect.getNow().pipeline().get(Connection.class).start(request, listener, connectNs);
        });
    }

    /** Opens one connection and parks it idle in the pool. */
    CompletableFuture<Void> openIdle() {
        CompletableFuture<Void> opened = new CompletableFuture<>();
        connect().addListener((Future<Channel> connect) -> {
            if (connect.isSuccess()) {
                release(connect.getNow().pipeline().get(Connection.class));
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

    /**
     * Opens a connection; for https it is ready once the TLS handshake is done, so the handshake counts
     * in the connect time (never in TTFT) and a refused certificate fails the connect.
     */
    private Future<Channel> connect() {
        ChannelFuture tcp = bootstrap.connect(origin.host(), origin.port());
        Promise<Channel> ready = tcp.channel().eventLoop().newPromise();
        tcp.addListener((ChannelFuture f) -> {
            if (!f.isSuccess()) {
                ready.setFailure(f.cause());
            } else if (!origin.tls()) {
                ready.setSuccess(f.channel());
            } else {
                f.channel().pipeline().get(SslHandler.class).handshakeFuture().addListener((Future<Channel> hs) -> {
                    if (hs.isSuccess()) {
                        ready.setSuccess(f.channel());
                    } else {
                        ready.setFailure(hs.cause());
                        f.channel().close();
                    }
                });
            }
        });
        return ready;
    }

    /** TLS with SNI, and with the host name checked against the certificate unless --insecure. */
    private SslHandler sslHandler(SslContext tls, Channel ch) {
        SslHandler handler = tls.newHandler(ch.alloc(), origin.host(), origin.port());
        if (!settings.insecureTls()) {
            SSLParameters parameters = handler.engine().getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
            handler.engine().setSSLParameters(parameters);
        }
        return handler;
    }
}
