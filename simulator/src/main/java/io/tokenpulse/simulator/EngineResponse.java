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
import java.util.concurrent.ScheduledExecutorService;

/**
 * The life of one request the engine runs and answers on one connection, whatever the answer's
 * shape ({@link StreamingResponse}, {@link PoolingResponse}): admitted into the engine and counted
 * as started, its events handed over to the connection's event loop until it is done, then counted
 * as ended exactly once (complete, reset by a fault, or left by the client) and the connection told.
 *
 * <p>Threading: confined to the connection's event loop, except {@link #isDone}, read by the
 * batching engine's thread.
 */
abstract class EngineResponse implements Generation, ResponseInProgress {

    final ChannelHandlerContext ctx;
    final String requestId;
    final long receivedNs;
    private final int promptTokens;
    private final int[] promptIds;
    final ServerMetrics metrics;
    private final Runnable onEnd;
    private volatile boolean done;
    private boolean metricsEnded;

    /** @param onEnd told once the answer is out, so the connection takes its next request */
    EngineResponse(
            ChannelHandlerContext ctx,
            String requestId,
            long receivedNs,
            int promptTokens,
            int[] promptIds,
            ServerMetrics metrics,
            Runnable onEnd) {
        this.ctx = ctx;
        this.requestId = requestId;
        this.receivedNs = receivedNs;
        this.promptTokens = promptTokens;
        this.promptIds = promptIds;
        this.metrics = metrics;
        this.onEnd = onEnd;
    }

    /** Counts the request as started, {@linkplain #opened opens} the answer and admits it into the engine. */
    final void start(LatencyModel model) {
        metrics.requestStarted(promptTokens);
        opened();
        model.generate(this);
    }

    /** What goes out before the engine runs the request (a stream's headers); nothing by default. */
    void opened() {}

    @Override
    public final String requestId() {
        return requestId;
    }

    @Override
    public final int promptTokens() {
        return promptTokens;
    }

    @Override
    public final int[] promptIds() {
        return promptIds;
    }

    @Override
    public final long receivedNs() {
        return receivedNs;
    }

    @Override
    public final ScheduledExecutorService scheduler() {
        return ctx.executor();
    }

    @Override
    public final boolean isDone() {
        return done;
    }

    @Override
    public final void emit(int tokens, long dueNs) {
        if (tokens < 1) {
            throw new IllegalArgumentException("an event carries at least one token, got " + tokens);
        }
        if (!ctx.executor().inEventLoop()) {
            ctx.executor().execute(() -> emit(tokens, dueNs));
            return;
        }
        if (!done) {
            generated(tokens, dueNs);
        }
    }

    /** {@link #emit} on the event loop, while not done. */
    abstract void generated(int tokens, long dueNs);

    /** Nothing more goes out: the engine stops scheduling it. */
    final void markDone() {
        done = true;
    }

    /** The answer is out: done, counted as ended, and the connection takes its next request. */
    final void finish(boolean complete, long e2eNs) {
        done = true;
        endMetrics(complete, e2eNs);
        onEnd.run();
    }

    /** Once per request, however it ends: complete, reset by a fault, or left by the client. */
    final void endMetrics(boolean complete, long e2eNs) {
        if (!metricsEnded) {
            metricsEnded = true;
            metrics.requestEnded(complete, e2eNs);
        }
    }

    /** The whole answer as one JSON body, with the request's id. */
    final void sendJson(ByteBuf body) {
        DefaultFullHttpResponse response =
                new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, body);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json");
        response.headers().set(SimulatorHandler.REQUEST_ID, requestId);
        HttpUtil.setContentLength(response, body.readableBytes());
        ctx.writeAndFlush(response);
    }
}
