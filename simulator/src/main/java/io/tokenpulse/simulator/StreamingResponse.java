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
import io.tokenpulse.simulator.engine.Generation;
import io.tokenpulse.simulator.engine.LatencyModel;
import io.tokenpulse.simulator.faults.Fault;
import io.tokenpulse.simulator.wire.ChunkFormat;
import io.tokenpulse.simulator.wire.Endpoint;
import io.tokenpulse.simulator.wire.GenerationRequest;
import java.util.ArrayDeque;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One generation request on one connection: the {@link Generation} a latency model drives, turned
 * into SSE events (or one JSON body when the request did not ask to stream), with the faults of
 * its {@link Fault} applied on the way out.
 *
 * <p>Threading: confined to the connection's event loop, except {@link #isDone}, read by the
 * batching engine's thread.
 */
final class StreamingResponse implements Generation, ResponseInProgress {

    private final ChannelHandlerContext ctx;
    private final GenerationRequest request;
    private final int outputTokens;
    private final String finishReason;
    private final String requestId;
    private final long receivedNs;
    private final ChunkFormat format;
    private final SendListener sendListener;
    private final Fault fault;
    private final Runnable onEnd;
    private final ServerMetrics metrics;
    private final StringBuilder wholeText = new StringBuilder();
    /** Writes held back by a stall fault, in order; sent together when it ends. */
    private final ArrayDeque<ByteBuf> held = new ArrayDeque<>();

    private long stallUntilNs;
    private boolean stalled;
    private int emittedTokens;
    private int pendingTokens;
    private int sentEvents;
    private boolean tokenEventSent;
    private volatile boolean done;
    private boolean cancelled;
    /** When the model wanted the previous token sent: the server-side TTFT and ITL are measured between these. */
    private long lastDueNs;

    private boolean metricsEnded;

    /** vLLM's --enable-prompt-tokens-details: usage carries the engine's prefix-cache hit. */
    private final boolean reportsCachedTokens;

    /** @param outputTokens tokens this response carries: max_tokens, or fewer when a simulated EOS comes first */
    StreamingResponse(
            ChannelHandlerContext ctx,
            GenerationRequest request,
            int outputTokens,
            String requestId,
            long receivedNs,
            ChunkFormat format,
            SendListener sendListener,
            Fault fault,
            ServerMetrics metrics,
            boolean reportsCachedTokens,
            Runnable onEnd) {
        this.reportsCachedTokens = reportsCachedTokens;
        this.ctx = ctx;
        this.request = request;
        this.outputTokens = outputTokens;
        this.finishReason = outputTokens < request.maxTokens() ? "stop" : "length";
        this.requestId = requestId;
        this.receivedNs = receivedNs;
        this.format = format;
        this.sendListener = sendListener;
        this.fault = fault;
        this.onEnd = onEnd;
        this.metrics = metrics;
    }

    void start(LatencyModel model) {
        metrics.requestStarted(request.promptTokens());
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
    public int[] promptIds() {
        return request.promptIds();
    }

    @Override
    public int maxTokens() {
        return outputTokens;
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
    public void prefixCached(int tokens) {
        if (reportsCachedTokens) {
            format.prefixCached(tokens);
        }
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
        int count = Math.min(tokens, outputTokens - emittedTokens);
        if (count > 0) {
            metrics.tokensSent(count, emittedTokens == 0, dueNs - (emittedTokens == 0 ? receivedNs : lastDueNs));
            lastDueNs = dueNs;
        }
        emittedTokens += count;
        pendingTokens += count;
        boolean last = emittedTokens == outputTokens;
        if (!last && pendingTokens < fault.tokensPerEvent()) {
            return;
        }
        int first = emittedTokens - pendingTokens;
        int thinkingTokens = format.thinkingTokens(first, pendingTokens);
        String thinking = format.text(first, thinkingTokens, fault.splitUtf8());
        String text = format.text(first + thinkingTokens, pendingTokens - thinkingTokens, fault.splitUtf8());
        pendingTokens = 0;
        if (request.stream()) {
            sendEvents(thinking, text, last, dueNs);
        } else {
            wholeText.append(text);
            if (last) {
                sendWhole();
            }
        }
    }

    /** The client went away: stop generating. */
    @Override
    public void cancel() {
        done = true;
        cancelled = true;
        endMetrics();
        held.forEach(ByteBuf::release);
        held.clear();
    }

    private void sendEvents(String thinking, String text, boolean last, long dueNs) {
        ByteBuf out = ctx.alloc().buffer(last ? 512 : 256);
        int firstSeq = sentEvents;
        if (!tokenEventSent) {
            sentEvents += format.openingEvents(out);
            if (request.endpoint() == Endpoint.CHAT) {
                format.roleEvent(out, fault.roleOnlyFirst());
                sentEvents++;
            } else if (fault.roleOnlyFirst()) {
                format.tokenEvent(out, "", null, 0);
                sentEvents++;
            }
        }
        if (fault.malformedEvent() == sentEvents + 1) {
            format.malformedEvent(out);
            sentEvents++;
        }
        String eventText = !tokenEventSent && fault.oversized()
                ? text + "x".repeat(Math.max(0, Fault.OVERSIZED_EVENT_BYTES - text.length()))
                : text;
        tokenEventSent = true;
        format.tokenEvent(out, thinking, eventText, last ? finishReason : null, emittedTokens);
        sentEvents++;
        if (last) {
            sentEvents +=
                    format.closingEvents(out, finishReason, request.promptTokens(), emittedTokens, !fault.noDone());
            if (request.includeUsage()) {
                format.usageEvent(out, request.promptTokens(), emittedTokens);
                sentEvents++;
            }
            if (!fault.noDone() && format.endsWithDone()) {
                format.doneEvent(out);
                sentEvents++;
            }
        }
        if (stalled && System.nanoTime() < stallUntilNs) {
            held.add(out);
            if (last) {
                done = true;
            }
            return;
        }
        // Stamped just before the write, like a client's "sent": on the event loop the flush reaches
        // the socket before returning, so a reader can see the bytes before a stamp taken after it.
        long sentNs = System.nanoTime();
        write(out, last);
        for (int seq = firstSeq; seq < sentEvents; seq++) {
            sendListener.onSent(requestId, seq, receivedNs, dueNs, sentNs);
        }
        if (last) {
            end();
            return;
        }
        if (fault.resetAfterEvents() > 0 && sentEvents >= fault.resetAfterEvents()) {
            reset();
            return;
        }
        if (fault.stallMs() > 0 && !stalled && sentEvents >= fault.stallAfterEvents()) {
            stalled = true;
            stallUntilNs = sentNs + TimeUnit.MILLISECONDS.toNanos(fault.stallMs());
            ctx.executor().schedule(this::releaseHeld, fault.stallMs(), TimeUnit.MILLISECONDS);
        }
    }

    /** The stall is over: everything generated meanwhile goes out at once, as from a server that froze. */
    private void releaseHeld() {
        if (cancelled) {
            return;
        }
        boolean ended = done;
        ByteBuf out;
        while ((out = held.poll()) != null) {
            write(out, ended && held.isEmpty());
        }
        if (ended) {
            endMetrics();
            onEnd.run();
        }
    }

    /**
     * With split-utf8, the event goes out in two writes split inside its first multi-byte character.
     * The void promise spares a promise per write, and the encoder's promise combiner for its three
     * buffers (chunk size, data, CRLF); a failed write reaches the handler's exceptionCaught, which
     * closes the connection.
     */
    private void write(ByteBuf out, boolean last) {
        if (fault.splitUtf8()) {
            int lead = out.indexOf(out.readerIndex(), out.writerIndex(), (byte) 0xE2);
            if (lead >= 0) {
                ctx.writeAndFlush(
                        new DefaultHttpContent(out.readRetainedSlice(lead + 1 - out.readerIndex())), ctx.voidPromise());
            }
        }
        ctx.writeAndFlush(last ? new DefaultLastHttpContent(out) : new DefaultHttpContent(out), ctx.voidPromise());
    }

    private void sendWhole() {
        ByteBuf body = ctx.alloc().buffer(wholeText.length() + 256);
        format.wholeResponse(body, wholeText.toString(), finishReason, request.promptTokens(), emittedTokens);
        DefaultFullHttpResponse response =
                new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, body);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json");
        response.headers().set(SimulatorHandler.REQUEST_ID, requestId);
        HttpUtil.setContentLength(response, body.readableBytes());
        ctx.writeAndFlush(response);
        end();
    }

    /** SO_LINGER 0 makes close() send RST instead of FIN: a connection reset mid-stream. */
    private void reset() {
        done = true;
        endMetrics();
        ctx.channel().config().setOption(ChannelOption.SO_LINGER, 0);
        ctx.close();
    }

    private void end() {
        done = true;
        endMetrics();
        onEnd.run();
    }

    /** Once per request, however it ends: complete, reset by a fault, or left by the client. */
    private void endMetrics() {
        if (!metricsEnded) {
            metricsEnded = true;
            metrics.requestEnded(emittedTokens == outputTokens, lastDueNs - receivedNs);
        }
    }
}
