package io.tokenpulse.producer.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pooled HTTP/1.1 connection and the single request it carries at a time. It goes back to the
 * pool only after the whole response was read, so no request ever waits behind another one's
 * stream (head-of-line blocking that would be measured as TTFT).
 *
 * <p>Threading: confined to the channel's event loop, like every listener call it makes.
 */
final class Connection extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(Connection.class);

    private final ConnectionPool pool;
    private final ArrivalStamp stamp;
    private Channel channel;
    private Exchange exchange;
    /** System.nanoTime() when the connection last went idle. */
    volatile long idleSinceNs;

    Connection(ConnectionPool pool, ArrivalStamp stamp) {
        this.pool = pool;
        this.stamp = stamp;
    }

    Channel channel() {
        return channel;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        channel = ctx.channel();
    }

    /**
     * Reports the connect time and writes the request; the caller made sure this connection is
     * open and idle.
     *
     * @param connectNs time spent opening this connection for the request, 0 when reused
     */
    void start(StreamRequest request, StreamListener listener, long connectNs) {
        if (exchange != null) {
            throw new IllegalStateException("bug: a second request was given to a connection that is still streaming");
        }
        Exchange started = new Exchange(listener, System.nanoTime());
        exchange = started;
        if (!notifyInFlight(started, () -> listener.onConnected(connectNs))) {
            return;
        }
        FullHttpRequest http = encode(request);
        long sentNs = System.nanoTime();
        started.sentAt(sentNs);
        if (!notifyInFlight(started, () -> listener.onRequestSent(sentNs))) {
            http.release();
            return;
        }
        channel.writeAndFlush(http).addListener(write -> {
            if (!write.isSuccess()) {
                fail(
                        started,
                        StreamError.Kind.CONNECTION_CLOSED,
                        "writing the request to " + pool.origin() + " failed: " + write.cause());
            }
        });
        HttpClientSettings settings = pool.settings();
        if (!settings.requestTimeout().isZero()) {
            started.requestTimer = channel.eventLoop()
                    .schedule(
                            () -> fail(
                                    started,
                                    StreamError.Kind.REQUEST_TIMEOUT,
                                    "no complete response from " + pool.origin() + " within "
                                            + seconds(settings.requestTimeout()) + " (request timeout) after "
                                            + started.bodyBytes + " body bytes"),
                            settings.requestTimeout().toNanos(),
                            TimeUnit.NANOSECONDS);
        }
        if (!settings.readIdleTimeout().isZero()) {
            scheduleIdleCheck(started, settings.readIdleTimeout().toNanos());
        }
    }

    /*
     * Hand-written rather than Netty's IdleStateHandler: that one counts from the connection's last
     * read, so a connection that sat idle in the pool would time out a request that just started.
     */
    private void scheduleIdleCheck(Exchange ex, long delayNs) {
        ex.idleTimer = channel.eventLoop()
                .schedule(
                        () -> {
                            long limitNs = pool.settings().readIdleTimeout().toNanos();
                            long silentNs = System.nanoTime() - ex.lastReadNs;
                            if (silentNs >= limitNs) {
                                fail(
                                        ex,
                                        StreamError.Kind.READ_TIMEOUT,
                                        "no bytes from " + pool.origin() + " for "
                                                + seconds(pool.settings().readIdleTimeout())
                                                + " (stream idle timeout) after " + ex.bodyBytes + " body bytes");
                            } else if (exchange == ex) {
                                scheduleIdleCheck(ex, limitNs - silentNs);
                            }
                        },
                        delayNs,
                        TimeUnit.NANOSECONDS);
    }

    /** "2 s", "0.2 s": the limits as the user gave them (--request-timeout-s, --stream-idle-timeout-s). */
    private static String seconds(Duration limit) {
        return BigDecimal.valueOf(limit.toMillis(), 3).stripTrailingZeros().toPlainString() + " s";
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            Exchange ex = exchange;
            if (ex == null) {
                // Bytes nobody asked for (say, a 408 before closing): the connection can't be trusted.
                LOG.debug("closing connection to {}: unexpected data while idle", pool.origin());
                ctx.close();
                return;
            }
            long arrivalNs = stamp.lastReadNs;
            ex.lastReadNs = arrivalNs;
            if (msg instanceof HttpObject object && object.decoderResult().isFailure()) {
                fail(
                        ex,
                        StreamError.Kind.PROTOCOL,
                        "invalid HTTP response from " + pool.origin() + ": "
                                + object.decoderResult().cause());
                return;
            }
            if (msg instanceof HttpResponse response) {
                ex.status = response.status().code();
                ex.keepAlive = HttpUtil.isKeepAlive(response);
                Map<String, String> headers = headers(response);
                if (!notifyInFlight(ex, () -> ex.listener.onResponseStart(ex.status, headers))) {
                    return;
                }
            }
            if (msg instanceof HttpContent content) {
                int readable = content.content().readableBytes();
                ex.bodyBytes += readable;
                if (ex.status != 200) {
                    ex.keepErrorBody(content.content(), pool.settings().maxErrorBodyBytes());
                } else if (readable > 0 && !deliver(ex, content.content(), arrivalNs)) {
                    return;
                }
                if (msg instanceof LastHttpContent) {
                    finish(ex, arrivalNs);
                }
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        pool.remove(this);
        Exchange ex = exchange;
        if (ex != null) {
            if (pool.isClosing()) {
                fail(ex, StreamError.Kind.CLIENT_CLOSED, StreamError.CLOSED_IN_FLIGHT);
            } else {
                fail(
                        ex,
                        StreamError.Kind.CONNECTION_CLOSED,
                        "connection closed by " + pool.origin() + " after " + ex.bodyBytes + " body bytes"
                                + (ex.status == 0 ? ", before the response status" : ""));
            }
        }
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Exchange ex = exchange;
        if (ex != null) {
            fail(
                    ex,
                    StreamError.Kind.CONNECTION_CLOSED,
                    "connection to " + pool.origin() + " failed after " + ex.bodyBytes + " body bytes: "
                            + cause.getMessage());
        } else {
            LOG.debug("closing idle connection to {}: {}", pool.origin(), cause.toString());
            ctx.close();
        }
    }

    private void finish(Exchange ex, long arrivalNs) {
        exchange = null;
        ex.cancelTimers();
        if (ex.keepAlive) {
            pool.release(this);
        } else {
            channel.close();
        }
        try {
            if (ex.status == 200) {
                ex.listener.onComplete(arrivalNs);
            } else {
                ex.listener.onError(new StreamError(
                        StreamError.Kind.HTTP_STATUS,
                        ex.status,
                        "HTTP " + ex.status + " from " + pool.origin(),
                        ex.errorBody()));
            }
        } catch (RuntimeException e) {
            LOG.warn("stream listener failed at the end of a request: {}", e.toString());
        }
    }

    /** Ends {@code ex} with an error unless it already ended; the connection is closed (its state is unknown). */
    private void fail(Exchange ex, StreamError.Kind kind, String message) {
        if (exchange != ex) {
            return;
        }
        exchange = null;
        ex.cancelTimers();
        channel.close();
        try {
            ex.listener.onError(new StreamError(kind, ex.status, message, ""));
        } catch (RuntimeException e) {
            LOG.warn("stream listener failed in onError: {}", e.toString());
        }
    }

    /** Calls the listener mid-request; if it throws, the request fails and false is returned. */
    private boolean notifyInFlight(Exchange ex, Runnable call) {
        try {
            call.run();
            return true;
        } catch (RuntimeException e) {
            listenerFailed(ex, e);
            return false;
        }
    }

    /*
     * notifyInFlight for the body's bytes, written out: a capturing lambda per event costs C1 (the
     * client's only compiler) a native allocation through a method handle, 2-3 % of the I/O threads.
     */
    private boolean deliver(Exchange ex, ByteBuf body, long arrivalNs) {
        try {
            ex.listener.onBytes(body.nioBuffer(), arrivalNs);
            return true;
        } catch (RuntimeException e) {
            listenerFailed(ex, e);
            return false;
        }
    }

    private void listenerFailed(Exchange ex, RuntimeException e) {
        fail(ex, StreamError.Kind.LISTENER_FAILED, "stream listener threw " + e);
    }

    private FullHttpRequest encode(StreamRequest request) {
        FullHttpRequest http = new DefaultFullHttpRequest(
                HttpVersion.HTTP_1_1, HttpMethod.POST, request.target(), Unpooled.wrappedBuffer(request.body()));
        http.headers().set(HttpHeaderNames.HOST, pool.origin().hostHeader());
        http.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
        request.headers().forEach(http.headers()::set);
        HttpUtil.setContentLength(http, request.body().length);
        return http;
    }

    private static Map<String, String> headers(HttpResponse response) {
        Map<String, String> headers = new LinkedHashMap<>();
        response.headers()
                .forEach(h -> headers.merge(h.getKey().toLowerCase(Locale.ROOT), h.getValue(), (a, b) -> a + ", " + b));
        return headers;
    }
}
