package io.tokenpulse.producer.http;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * HTTP/1.1 client for streamed responses, built for timing them (chosen over the JDK's HttpClient
 * by measurement, see bench/http-client/README.md):
 * <ul>
 *   <li>a pool per host where a connection carries at most one request at a time: a request that
 *       finds no idle connection opens a new one, and that connect time is reported on its own;
 *   <li>the pool can be warmed up to N connections before a run;
 *   <li>the arrival time of body bytes is taken on the I/O thread as the socket read returns and
 *       handed to the listener with the bytes;
 *   <li>failures (connect refused, reset mid-stream, non-200 with its body, timeouts) arrive as
 *       {@link StreamError} values.
 * </ul>
 *
 * <p>Threading: {@link #send} and {@link #warmUp} may be called from any thread and never block;
 * listeners run on the client's I/O threads.
 */
public final class StreamingHttpClient implements AutoCloseable {

    private final HttpClientSettings settings;
    private final EventLoopGroup eventLoops;
    private final ChannelGroup channels;
    private final Bootstrap template;
    private final Map<Origin, ConnectionPool> pools = new ConcurrentHashMap<>();
    private volatile boolean closed;
    /** The I/O threads' ids, learnt on the first {@link #ioCpu()}. */
    private volatile long[] ioThreadIds;

    public StreamingHttpClient(HttpClientSettings settings) {
        this.settings = settings;
        this.eventLoops = Transport.eventLoops(settings.ioThreads());
        this.channels = new DefaultChannelGroup("tp-http", GlobalEventExecutor.INSTANCE);
        this.template = new Bootstrap()
                .group(eventLoops)
                .channel(Transport.socketChannel())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int)
                        settings.connectTimeout().toMillis());
    }

    /**
     * Sends {@code request} and streams the response to {@code listener}; returns at once. Exactly
     * one of {@link StreamListener#onComplete} and {@link StreamListener#onError} follows.
     */
    public void send(StreamRequest request, StreamListener listener) {
        if (closed) {
            listener.onError(StreamError.of(StreamError.Kind.CLIENT_CLOSED, "the HTTP client is closed"));
            return;
        }
        pool(Origin.of(request.uri())).send(request, listener);
    }

    /**
     * Opens {@code connections} connections to the host of {@code uri} and leaves them idle in the
     * pool, so that the first requests of a run do not pay for connects. They are opened together,
     * which is harmless before the run starts.
     */
    public CompletableFuture<WarmUp> warmUp(URI uri, int connections) {
        if (connections < 0) {
            throw new IllegalArgumentException("warm-up connections must be >= 0, got " + connections);
        }
        ConnectionPool pool = pool(Origin.of(uri));
        long startNs = System.nanoTime();
        AtomicReference<String> firstError = new AtomicReference<>("");
        List<CompletableFuture<Boolean>> opens = new ArrayList<>(connections);
        for (int i = 0; i < connections; i++) {
            opens.add(pool.openIdle().handle((ok, error) -> {
                if (error != null) {
                    firstError.compareAndSet("", "cannot connect to " + pool.origin() + ": " + error.getMessage());
                }
                return error == null;
            }));
        }
        return CompletableFuture.allOf(opens.toArray(CompletableFuture[]::new)).thenApply(done -> {
            int opened = (int) opens.stream().filter(CompletableFuture::join).count();
            return new WarmUp(opened, connections - opened, System.nanoTime() - startNs, firstError.get());
        });
    }

    /** Connections idle in the pool of {@code uri}'s host. */
    public int idleConnections(URI uri) {
        ConnectionPool pool = pools.get(Origin.of(uri));
        return pool == null ? 0 : pool.idleCount();
    }

    /**
     * The CPU each I/O thread used so far, read with the time: two readings say how busy the busiest
     * thread was in between (a saturated I/O thread delays every timestamp it takes). Not for the
     * timing path: the first call waits for each event loop to run a task.
     */
    public IoCpu ioCpu() {
        long[] ids = ioThreadIds;
        if (ids == null) {
            List<Long> found = new ArrayList<>();
            for (EventExecutor loop : eventLoops) {
                found.add(loop.submit(() -> Thread.currentThread().getId())
                        .syncUninterruptibly()
                        .getNow());
            }
            ids = found.stream().mapToLong(Long::longValue).toArray();
            ioThreadIds = ids;
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long[] cpuNs = new long[ids.length];
        for (int i = 0; i < ids.length; i++) {
            cpuNs[i] = threads.isThreadCpuTimeSupported() ? threads.getThreadCpuTime(ids[i]) : -1;
        }
        return new IoCpu(System.nanoTime(), cpuNs);
    }

    /**
     * A reading of {@link #ioCpu()}.
     *
     * @param atNs  {@link System#nanoTime()} when it was read
     * @param cpuNs each I/O thread's CPU time so far, -1 where it cannot be read
     */
    public record IoCpu(long atNs, long[] cpuNs) {
        /** The busiest I/O thread's share of the wall time since {@code before} (0..1), NaN when not measurable. */
        public double busiestShareSince(IoCpu before) {
            long wallNs = atNs - before.atNs;
            double busiest = Double.NaN;
            for (int i = 0; i < Math.min(cpuNs.length, before.cpuNs.length); i++) {
                if (wallNs > 0 && cpuNs[i] >= 0 && before.cpuNs[i] >= 0) {
                    double share = Math.min(1, (cpuNs[i] - before.cpuNs[i]) / (double) wallNs);
                    busiest = Double.isNaN(busiest) ? share : Math.max(busiest, share);
                }
            }
            return busiest;
        }
    }

    /** Closes every connection; requests in flight fail with {@link StreamError.Kind#CLIENT_CLOSED}. */
    @Override
    public void close() {
        closed = true;
        channels.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        eventLoops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private ConnectionPool pool(Origin origin) {
        return pools.computeIfAbsent(origin, o -> new ConnectionPool(o, settings, template, () -> closed, channels));
    }
}
