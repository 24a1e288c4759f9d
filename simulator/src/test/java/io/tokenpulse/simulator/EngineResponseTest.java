package io.tokenpulse.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.util.ReferenceCountUtil;
import io.tokenpulse.simulator.engine.Generation;
import io.tokenpulse.simulator.engine.LatencyModel;
import io.tokenpulse.simulator.wire.PoolingEndpoint;
import io.tokenpulse.simulator.wire.PoolingRequest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A response's life in the engine, as every kind of answer shares it: admitted and counted as running,
 * answered once, counted as ended once however it ends, and the connection told only when the answer
 * went out. Run with a pooling answer (the smallest) on an embedded channel.
 */
class EngineResponseTest {

    private static final Pattern RUNNING = Pattern.compile("(?m)^vllm:num_requests_running\\{[^}]*\\} (\\S+)$");

    private final List<Generation> admitted = new ArrayList<>();
    private final LatencyModel engine = admitted::add;
    private final ServerMetrics metrics = new ServerMetrics(MetricsStyle.VLLM, "m", engine);
    private final EmbeddedChannel channel = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
    private final AtomicInteger ends = new AtomicInteger();

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
    }

    private PoolingResponse response() {
        ChannelHandlerContext ctx = channel.pipeline().firstContext();
        PoolingRequest request =
                new PoolingRequest(PoolingEndpoint.EMBEDDINGS, null, List.of("a b"), List.of(), 0, new int[] {1, 2});
        return new PoolingResponse(ctx, request, "req-1", "m", System.nanoTime(), metrics, ends::incrementAndGet);
    }

    @Test
    void startAdmitsItAndCountsItRunningUntilItsAnswerIsOut() throws IOException {
        PoolingResponse response = response();
        response.start(engine);
        assertThat(admitted).containsExactly(response);
        assertThat(running()).isEqualTo(1.0);
        assertThat(response.isDone()).isFalse();

        response.emit(1, System.nanoTime());

        FullHttpResponse answer = channel.readOutbound();
        assertThat(answer.headers().get(SimulatorHandler.REQUEST_ID)).isEqualTo("req-1");
        assertThat(answer.headers().get("content-type")).isEqualTo("application/json");
        ReferenceCountUtil.release(answer);
        assertThat(response.isDone()).isTrue();
        assertThat(ends).hasValue(1);
        assertThat(running()).isZero();
    }

    @Test
    void afterTheAnswerNothingMoreGoesOutNorIsCountedAgain() throws IOException {
        PoolingResponse response = response();
        response.start(engine);
        response.emit(1, System.nanoTime());
        ReferenceCountUtil.release(channel.readOutbound());

        response.emit(1, System.nanoTime());
        response.cancel();

        assertThat((Object) channel.readOutbound()).isNull();
        assertThat(ends).hasValue(1);
        assertThat(running()).isZero();
    }

    @Test
    void aClientThatLeftEndsItWithoutAnAnswerOrTellingTheConnection() throws IOException {
        PoolingResponse response = response();
        response.start(engine);

        response.cancel();
        response.emit(1, System.nanoTime());

        assertThat(response.isDone()).isTrue();
        assertThat((Object) channel.readOutbound()).isNull();
        assertThat(ends).hasValue(0);
        assertThat(running()).isZero();
    }

    @Test
    void anEventOfNoTokensIsABug() {
        PoolingResponse response = response();
        assertThatThrownBy(() -> response.emit(0, System.nanoTime()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("an event carries at least one token, got 0");
    }

    private double running() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        metrics.write(out);
        Matcher m = RUNNING.matcher(out.toString(StandardCharsets.UTF_8));
        assertThat(m.find()).as(out.toString(StandardCharsets.UTF_8)).isTrue();
        return Double.parseDouble(m.group(1));
    }
}
