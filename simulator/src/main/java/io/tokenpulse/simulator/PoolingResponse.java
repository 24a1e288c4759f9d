package io.tokenpulse.simulator;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.tokenpulse.simulator.wire.PoolingFormat;
import io.tokenpulse.simulator.wire.PoolingRequest;

/**
 * One pooling request (embeddings, rerank, score) on one connection. The engine runs it as a request
 * of one output token: it waits for a batch slot, its input's tokens are prefilled like any prompt
 * (sharing steps, budget and KV cache with the generation requests), and the moment its first token
 * would be sent, the pooled answer is: one JSON body, then the request leaves the engine. So its E2EL
 * is what a generation request's TTFT would be for the same input.
 *
 * <p>Threading: as {@link EngineResponse}.
 */
final class PoolingResponse extends EngineResponse {

    private final PoolingRequest request;
    private final String model;

    PoolingResponse(
            ChannelHandlerContext ctx,
            PoolingRequest request,
            String requestId,
            String model,
            long receivedNs,
            ServerMetrics metrics,
            Runnable onEnd) {
        super(ctx, requestId, receivedNs, request.promptTokens(), request.promptIds(), metrics, onEnd);
        this.request = request;
        this.model = model;
    }

    /** One: the step that ends the prefill answers; nothing is decoded. */
    @Override
    public int maxTokens() {
        return 1;
    }

    /** The prefill is done: the answer goes out whole. */
    @Override
    void generated(int tokens, long dueNs) {
        markDone();
        ByteBuf body = ctx.alloc().buffer(256 + 64 * request.inputs().size() * PoolingFormat.EMBEDDING_DIMENSIONS);
        PoolingFormat.answer(body, request, requestId, model, System.currentTimeMillis() / 1000);
        sendJson(body);
        finish(true, dueNs - receivedNs);
    }

    @Override
    public void cancel() {
        markDone();
        endMetrics(false, 0);
    }
}
