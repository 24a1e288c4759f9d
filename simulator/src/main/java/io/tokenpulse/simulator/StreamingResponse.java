package io.tokenpulse.simulator;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;

import java.util.concurrent.ScheduledExecutorService;

/**
 * One generation request on one connection: the {@link Generation} a latency model drives, turned
 * into SSE events (or one JSON body when the request did not ask to stream).
 *
 * <p>Threading: confined to the connection's event loop.
 */
final class StreamingResponse implements Generation {

    private static final String FINISH_LENGTH = "length";

    private final ChannelHandlerContext ctx;
    private final GenerationRequest request;
    private final String requestId;
    private final long receivedNs;
    private final ChunkFormat format;
    private final SendListener sendListener;
    private final Fault fault;
    private final Runnable onEnd;
    private final StringBuilder wholeText = new StringBuilder();
    private int emittedTokens;
    private int sentEvents;
    private boolean done;

    StreamingResponse(ChannelHandlerContext ctx, GenerationRequest request, String requestId, long receivedNs,
                      ChunkFormat format, SendListener sendListener, Fault fault, Runnable onEnd) {
        this.ctx = ctx;
        this.request = request;
        this.requestId = requestId;
        this.receivedNs = receivedNs;
        this.format = format;
        this.sendListener = sendListener;
        this.fault = fault;
        this.onEnd = onEnd;
    }

    void start(LatencyModel model) {
        if (request.stream()) {
            // Headers go out at once, as uvicorn's StreamingResponse does: the client sees the status
            // before the first token, and TTFT is measured to the first data event.
            HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
            head.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/event-stream; charset=utf-8");
            head.headers().set(SimulatorHandler.REQUEST_ID, requestId);
            HttpUtil.setTransferEncodingChunked(head, true);
            ctx.writeAndFlush(head);
        }
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
    public int maxTokens() {
        return request.maxTokens();
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

    @Override
    public void emit(int tokens, long dueNs) {
        if (tokens < 1) {
            throw new IllegalArgumentException("an event carries at least one token, got " + tokens);
        }
        if (!ctx.executor().inEventLoop()) {
            ctx.executor().execute(() -> emit(tokens, dueNs));
            return;
        }
        if (done) {
            return;
        }
        int count = Math.min(tokens, request.maxTokens() - emittedTokens);
        String text = ChunkFormat.text(emittedTokens, count);
        boolean first = emittedTokens == 0;
        emittedTokens += count;
        boolean last = emittedTokens == request.maxTokens();
        if (request.stream()) {
            sendEvents(text, first, last, dueNs);
        } else {
            wholeText.append(text);
            if (last) {
                sendWhole();
            }
        }
    }

    /** The client went away: stop generating. */
    void cancel() {
        done = true;
    }

    private void sendEvents(String text, boolean first, boolean last, long dueNs) {
        ByteBuf out = ctx.alloc().buffer(last ? 512 : 256);
        int firstSeq = sentEvents;
        if (first && request.endpoint() == Endpoint.CHAT) {
            format.roleEvent(out);
            sentEvents++;
        }
        format.tokenEvent(out, text, last ? FINISH_LENGTH : null);
        sentEvents++;
        if (last) {
            if (request.includeUsage()) {
                format.usageEvent(out, request.promptTokens(), emittedTokens);
                sentEvents++;
            }
            format.doneEvent(out);
            sentEvents++;
        }
        // Stamped just before the write, like a client's "sent": on the event loop the flush reaches
        // the socket before returning, so a reader can see the bytes before a stamp taken after it.
        long sentNs = System.nanoTime();
        ctx.writeAndFlush(last ? new DefaultLastHttpContent(out) : new DefaultHttpContent(out));
        for (int seq = firstSeq; seq < sentEvents; seq++) {
            sendListener.onSent(requestId, seq, dueNs, sentNs);
        }
        if (last) {
            end();
        } else if (fault.resetAfterEvents() > 0 && sentEvents >= fault.resetAfterEvents()) {
            reset();
        }
    }

    private void sendWhole() {
        ByteBuf body = ctx.alloc().buffer(wholeText.length() + 256);
        format.wholeResponse(body, wholeText.toString(), FINISH_LENGTH, request.promptTokens(), emittedTokens);
        DefaultFullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, body);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json");
        response.headers().set(SimulatorHandler.REQUEST_ID, requestId);
        HttpUtil.setContentLength(response, body.readableBytes());
        ctx.writeAndFlush(response);
        end();
    }

    /** SO_LINGER 0 makes close() send RST instead of FIN: a connection reset mid-stream. */
    private void reset() {
        done = true;
        ctx.channel().config().setOption(ChannelOption.SO_LINGER, 0);
        ctx.close();
    }

    private void end() {
        done = true;
        onEnd.run();
    }
}
