package io.tokenpulse.simulator;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.tokenpulse.simulator.engine.Generation;
import io.tokenpulse.simulator.engine.LatencyModel;
import io.tokenpulse.simulator.wire.PoolingFormat;
import io.tokenpulse.simulator.wire.PoolingRequest;
import java.util.concurrent.ScheduledExecutorService;

/**
 * One pooling request (embeddings, rerank, score) on one connection. The engine runs it as a request
 * of one output token: it waits for a batch slot, its input's tokens are prefilled like any prompt
 * (sharing steps, budget and KV cache with the generation requests), and the moment its first token
 * would be sent, the pooled answer is: one JSON body, then the request leaves the engine. So its E2EL
 * is what a generation request's TTFT would be for the same input.
 *
 * <p>Threading: confined to the connection's event loop, except {@link #isDone}, read by the batching
 * engine's thread.
 */
final class PoolingResponse implements Generation, ResponseInProgress {

    private final ChannelHandlerContext ctx;
    private final PoolingRequest request;
    private final String requestId;
    private final String model;
    private final long receivedNs;
    private final ServerMetrics metrics;
    private final Runnable onEnd;
    private volatile boolean done;
    private boolean metricsEnded;

    PoolingResponse(
            ChannelHandlerContext ctx,
            PoolingRequest request,
            String requestId,
            String model,
            long receivedNs,
            ServerMetrics metrics,
            Runnable onEnd) {
        this.ctx = ctx;
        this.request = request;
        this.requestId = requestId;
        this.model = model;
        this.receivedNs = receivedNs;
        this.metrics = metrics;
        this.onEnd = onEnd;
    }

    void start(LatencyModel model) {
        metrics.requestStarted(request.promptTokens());
        model.generate(this);
    }

    @Override
    public String requestId() {
        return requestId;
    }

    @Override
    public int promptTokens() {
        return request.promptTokens();
    }

    @Override
    public int[] promptIds() {
        return request.promptIds();
    }

    /** One: the step that ends the prefill answers; nothing is decoded. */
    @Override
    public int maxTokens() {
        return 1;
    }

    @Override
    public long receivedNs() {
        return receivedNs;
    }

    @Override
    public ScheduledExecutorService scheduler() {
        return ctx.executor();
    }

    @Override
    public boolean isDone() {
        return done;
    }

    /** The prefill is done: the answer goes out whole. */
    @Override
    public void emit(int tokens, long dueNs) {
        if (!ctx.executor().inEventLoop()) {
            ctx.executor().execute(() -> emit(tokens, dueNs));
            return;
        }
        if (done) {
            return;
        }
        done = true;
        ByteBuf body = ctx.alloc().buffer(256 + 64 * request.inputs().size() * PoolingFormat.EMBEDDING_DIMENSIONS);
        PoolingFormat.answer(body, request, requestId, model, System.currentTimeMillis() / 1000);
        DefaultFullHttpResponse response =
                new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, body);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json");
        response.headers().set(SimulatorHandler.REQUEST_ID, requestId);
        HttpUtil.setContentLength(response, body.readableBytes());
        ctx.writeAndFlush(response);
        endMetrics(true, dueNs - receivedNs);
        onEnd.run();
    }

    @Override
    public void cancel() {
        done = true;
        endMetrics(false, 0);
    }

    private void endMetrics(boolean complete, long e2eNs) {
        if (!metricsEnded) {
            metricsEnded = true;
            metrics.requestEnded(complete, e2eNs);
        }
    }
}
