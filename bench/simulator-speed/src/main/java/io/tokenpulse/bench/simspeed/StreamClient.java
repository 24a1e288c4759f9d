package io.tokenpulse.bench.simspeed;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ByteProcessor;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * A lean load: {@code streams} keep-alive connections on one Netty event loop, each streaming
 * completions back to back (closed loop, so {@code streams} responses are always in flight), with
 * the first request of each at a seeded random moment of one response's length so that tokens of
 * different streams fall due at different times, as from independent users. Counts the SSE events
 * it reads and, per token event, its arrival lateness: read time − (request written + TTFT + k ×
 * gap), which adds the request's way in, the server's parse and the response's way out to the
 * server's own lateness (a check that the server's {@code dueNs} hides no delay of its own).
 *
 * <p>Events are counted by their {@code \n\n} ends rather than parsed: the client must stay far
 * cheaper than the server it measures. Threading: all state on the one event loop.
 */
final class StreamClient implements AutoCloseable {

    /** One client window's numbers: token events read, responses ended, failures, arrival lateness (ns). */
    record Window(long tokenEvents, long responses, long failures, Histogram arrivalLatenessNs) {}

    private final EventLoopGroup loop;
    private final Bootstrap bootstrap;
    private final long ttftNs;
    private final long gapNs;
    private final int tokens;
    private final byte[] body;
    private final String host;
    private final List<Channel> channels = new ArrayList<>();
    private boolean running;
    private long tokenEvents;
    private long responses;
    private long failures;
    private Histogram arrivalLatenessNs = newHistogram();

    StreamClient(InetSocketAddress server, long ttftNs, long gapNs, int tokens) {
        this.ttftNs = ttftNs;
        this.gapNs = gapNs;
        this.tokens = tokens;
        this.body = ("{\"model\":\"tokenpulse-sim\",\"prompt\":\"hello\",\"max_tokens\":" + tokens
                        + ",\"stream\":true,\"ignore_eos\":true}")
                .getBytes(StandardCharsets.UTF_8);
        this.host = server.getHostString() + ":" + server.getPort();
        DefaultThreadFactory threads = new DefaultThreadFactory("speed-client", true);
        boolean epoll = Epoll.isAvailable();
        this.loop = epoll ? new EpollEventLoopGroup(1, threads) : new NioEventLoopGroup(1, threads);
        this.bootstrap = new Bootstrap()
                .group(loop)
                .channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .remoteAddress(server)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpClientCodec(), new Stream());
                    }
                });
    }

    /** Opens {@code streams} connections and starts their first requests within one response's length. */
    void start(int streams, long seed) throws InterruptedException {
        for (int i = 0; i < streams; i++) {
            channels.add(bootstrap.connect().sync().channel());
        }
        long responseNs = ttftNs + (tokens - 1) * gapNs;
        SplittableRandom random = new SplittableRandom(seed);
        onLoop(() -> {
            running = true;
            for (Channel channel : channels) {
                loop.schedule(
                        () -> {
                            if (running && channel.isActive()) {
                                channel.pipeline().get(Stream.class).request(channel);
                            }
                        },
                        random.nextLong(responseNs),
                        TimeUnit.NANOSECONDS);
            }
            return null;
        });
    }

    /** The counts since the last call; a new window starts. */
    Window takeWindow() {
        return onLoop(() -> {
            Window window = new Window(tokenEvents, responses, failures, arrivalLatenessNs);
            tokenEvents = 0;
            responses = 0;
            failures = 0;
            arrivalLatenessNs = newHistogram();
            return window;
        });
    }

    /** Stops starting requests and closes every connection (responses in flight are cut). */
    void stop() {
        onLoop(() -> {
            running = false;
            return null;
        });
        for (Channel channel : channels) {
            channel.close().syncUninterruptibly();
        }
        channels.clear();
    }

    @Override
    public void close() {
        stop();
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private <T> T onLoop(java.util.concurrent.Callable<T> task) {
        try {
            return loop.submit(task).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the client's event loop", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("the client's event loop failed", e.getCause());
        }
    }

    private static Histogram newHistogram() {
        return new Histogram(3_600_000_000_000L, 3);
    }

    /** One connection: request, read the events, request again. */
    private final class Stream extends SimpleChannelInboundHandler<HttpObject> {
        private long writtenNs;
        private int events;
        private boolean newline;
        private long readNs;
        private final ByteProcessor eventEnds = b -> {
            if (b == '\n') {
                if (newline) {
                    eventEnded();
                    newline = false;
                } else {
                    newline = true;
                }
            } else {
                newline = false;
            }
            return true;
        };

        void request(Channel channel) {
            FullHttpRequest request = new DefaultFullHttpRequest(
                    HttpVersion.HTTP_1_1, HttpMethod.POST, "/v1/completions", Unpooled.wrappedBuffer(body));
            request.headers()
                    .set(HttpHeaderNames.HOST, host)
                    .set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
            events = 0;
            newline = false;
            writtenNs = System.nanoTime();
            channel.writeAndFlush(request);
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
            if (msg instanceof HttpResponse response && response.status().code() != 200) {
                failures++;
            }
            if (msg instanceof HttpContent content) {
                readNs = System.nanoTime();
                content.content().forEachByte(eventEnds);
                if (msg instanceof LastHttpContent) {
                    responses++;
                    if (events != tokens + 1) { // the tokens, then [DONE]
                        failures++;
                    }
                    if (running) {
                        request(ctx.channel());
                    }
                }
            }
        }

        private void eventEnded() {
            events++;
            if (events <= tokens) {
                tokenEvents++;
                long dueNs = writtenNs + ttftNs + (events - 1) * gapNs;
                arrivalLatenessNs.recordValue(Math.max(0, readNs - dueNs));
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            failures++;
            ctx.close();
        }
    }
}
