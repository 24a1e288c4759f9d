package io.tokenpulse.simulator;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import io.netty.handler.ssl.SslContext;
import io.tokenpulse.simulator.engine.LatencyModel;
import io.tokenpulse.simulator.engine.OutputLengths;
import io.tokenpulse.simulator.faults.FaultPlan;
import io.tokenpulse.simulator.wire.PromptPrefixes;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.TimeUnit;

/**
 * A streaming server that stands in for an LLM server: HTTP/1.1 with keep-alive, {@code GET /health},
 * {@code GET /v1/models}, {@code POST /v1/completions} and {@code POST /v1/chat/completions} (SSE when
 * {@code "stream": true}; non-streamed completions are also DeepSpeed-MII's answer),
 * {@code POST /v1/audio/transcriptions} (multipart), TGI's {@code POST /generate_stream}, the TensorRT-LLM
 * ensemble's {@code POST /v2/models/<model>/generate_stream}, and vLLM's {@code POST /start_profile} and
 * {@code /stop_profile} (counted in {@link ServerStats}), and the engine's {@code GET /metrics}
 * ({@link ServerMetrics}). When tokens are sent is up to
 * the configured {@link LatencyModel}; the x-request-id header is echoed; header
 * {@code x-simulator-fault} injects faults (see {@code Fault}), and so does the config's {@link FaultPlan}
 * at random. Requests naming another model than the served ones get 404, prompts beyond the
 * context length 400, both in vLLM's words.
 *
 * <p>Threading: {@link #start} binds before returning; the server runs on its own event loops until
 * {@link #close}.
 */
public final class SimulatorServer implements AutoCloseable {

    /** 64 Ki blocks of 16 tokens: about a million prompt tokens remembered for cached_tokens. */
    private static final int PROMPT_PREFIX_BLOCKS = 1 << 16;

    /** Bodies up to this size are accepted: a 128k-token prompt as text is a few MiB. */
    private static final int MAX_REQUEST_BYTES = 64 * 1024 * 1024;

    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final Channel serverChannel;
    private final Counters counters;
    private final LatencyModel latencyModel;
    private final boolean tls;

    private SimulatorServer(
            EventLoopGroup boss,
            EventLoopGroup workers,
            Channel serverChannel,
            Counters counters,
            LatencyModel latencyModel,
            boolean tls) {
        this.latencyModel = latencyModel;
        this.tls = tls;
        this.boss = boss;
        this.workers = workers;
        this.serverChannel = serverChannel;
        this.counters = counters;
    }

    public static SimulatorServer start(SimulatorConfig config) throws InterruptedException {
        EventLoopGroup boss = Transport.eventLoops(1, "tp-sim-accept");
        EventLoopGroup workers = Transport.eventLoops(config.ioThreads(), "tp-sim-io");
        Counters counters = new Counters();
        // one per server, as a server's prefix cache is shared by all its connections
        PromptPrefixes prefixes = config.promptTokensDetails() ? new PromptPrefixes(PROMPT_PREFIX_BLOCKS) : null;
        OutputLengths.Sampler outputLengths = config.outputLengths().sampler();
        FaultPlan.Drawer faults = config.faults().drawer();
        ServerMetrics metrics = new ServerMetrics(config.metricsStyle(), config.modelName(), config.latencyModel());
        try {
            SslContext tls = config.tls() ? SelfSignedTls.serverContext() : null;
            Channel channel = new ServerBootstrap()
                    .group(boss, workers)
                    .channel(Transport.serverChannel())
                    // thousands of clients may connect at once when a load generator warms its pool
                    .option(ChannelOption.SO_BACKLOG, 4096)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            if (tls != null) {
                                ch.pipeline().addLast(tls.newHandler(ch.alloc()));
                            }
                            ch.pipeline()
                                    .addLast(
                                            new HttpServerCodec(),
                                            new HttpServerKeepAliveHandler(),
                                            new HttpObjectAggregator(MAX_REQUEST_BYTES),
                                            new SimulatorHandler(
                                                    config, counters, outputLengths, faults, metrics, prefixes));
                        }
                    })
                    .bind(config.host(), config.port())
                    .sync()
                    .channel();
            return new SimulatorServer(boss, workers, channel, counters, config.latencyModel(), config.tls());
        } catch (RuntimeException | InterruptedException e) {
            boss.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            workers.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            config.latencyModel().close();
            throw e;
        }
    }

    public int port() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    /** http://host:port (https:// with TLS) with no trailing slash. */
    public URI baseUri() {
        InetSocketAddress address = (InetSocketAddress) serverChannel.localAddress();
        return URI.create((tls ? "https://" : "http://") + address.getHostString() + ":" + address.getPort());
    }

    public ServerStats stats() {
        return counters.snapshot();
    }

    @Override
    public void close() {
        serverChannel.close().syncUninterruptibly();
        boss.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        workers.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        latencyModel.close();
    }
}
