package io.tokenpulse.simulator;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.tokenpulse.simulator.engine.Generation;
import io.tokenpulse.simulator.faults.Fault;
import io.tokenpulse.simulator.wire.ChunkFormat;
import io.tokenpulse.simulator.wire.Endpoint;
import io.tokenpulse.simulator.wire.GenerationRequest;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * One generation request on one connection: the {@link Generation} a latency model drives, turned
 * into SSE events (or one JSON body when the request did not ask to stream), with the faults of
 * its {@link Fault} applied on the way out.
 *
 * <p>Threading: as {@link EngineResponse}.
 */
final class StreamingResponse extends EngineResponse {

    private final GenerationRequest request;
    private final int outputTokens;
    private final String finishReason;
    private final ChunkFormat format;
    private final SendListener sendListener;
    private final Fault fault;
    private final StringBuilder wholeText = new StringBuilder();
    /** Writes held back by a stall fault, in order; sent together when it ends. */
    private final ArrayDeque<ByteBuf> held = new ArrayDeque<>();

    private long stallUntilNs;
    private boolean stalled;
    private int emittedTokens;
    private int pendingTokens;
    private int sentEvents;
    private boolean tokenEventSent;
    private boolean cancelled;
    /** When the model wanted the previous token sent: the server-side TTFT and ITL are measured between these. */
    private long lastDueNs;

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
        super(ctx, requestId, receivedNs, request.promptTokens(), request.promptIds(), metrics, onEnd);
        this.reportsCachedTokens = reportsCachedTokens;
        this.request = request;
        this.outputTokens = outputTokens;
        this.finishReason = outputTokens < request.maxTokens() ? "stop" : "length";
        this.format = format;
        this.sendListener = sendListener;
        this.fault = fault;
    }

    @Override
    void opened() {
        if (request.stream()) {
            // Headers go out at once, as uvicorn's StreamingResponse does: the client sees the status
            // before the first token, and TTFT is measured to the first data event.
            HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
            head.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/event-stream; charset=utf-8");
            head.headers().set(SimulatorHandler.REQUEST_ID, requestId);
            HttpUtil.setTransferEncodingChunked(head, true);
            ctx.writeAndFlush(head);
        }
    }

    @Override
    public int maxTokens() {
        return outputTokens;
    }

    @Override
    public void prefixCached(int tokens) {
        if (reportsCachedTokens) {
            format.prefixCached(tokens);
        }
    }

    @Override
    void generated(int tokens, long dueNs) {
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
        markDone();
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
                markDone();
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
        boolean ended = isDone();
        ByteBuf out;
        while ((out = held.poll()) != null) {
            write(out, ended && held.isEmpty());
        }
        if (ended) {
            end();
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
        sendJson(body);
        end();
    }

    /** SO_LINGER 0 makes close() send RST instead of FIN: a connection reset mid-stream. */
    private void reset() {
        markDone();
        endMetrics();
        ctx.channel().config().setOption(ChannelOption.SO_LINGER, 0);
        ctx.close();
    }

    private void end() {
        finish(emittedTokens == outputTokens, lastDueNs - receivedNs);
    }

    /** Counted as ended with what was sent: complete when every token was, e2e to the last one's due time. */
    private void endMetrics() {
        endMetrics(emittedTokens == outputTokens, lastDueNs - receivedNs);
    }
}
