package io.tokenpulse.simulator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;

/**
 * Routes the requests of one connection. HTTP/1.1 answers in request order, so a request that
 * arrives while a response is still streaming (pipelining) waits for it and is counted: that wait
 * is the head-of-line blocking a correct client never causes.
 *
 * <p>Threading: one instance per connection, confined to its event loop.
 */
final class SimulatorHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

    static final String REQUEST_ID = "x-request-id";
    private static final Logger LOG = LoggerFactory.getLogger(SimulatorHandler.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final SimulatorConfig config;
    private final Counters counters;
    private final ArrayDeque<FullHttpRequest> waiting = new ArrayDeque<>();
    private StreamingResponse current;

    SimulatorHandler(SimulatorConfig config, Counters counters) {
        this.config = config;
        this.counters = counters;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        counters.connectionsOpened.increment();
        super.channelActive(ctx);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        counters.requestsReceived.increment();
        if (current != null) {
            counters.pipelinedRequests.increment();
            waiting.add(request.retain());
            counters.inFlightOnConnection(1 + waiting.size());
            return;
        }
        counters.inFlightOnConnection(1);
        handle(ctx, request);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (current != null) {
            current.cancel();
            current = null;
        }
        waiting.forEach(FullHttpRequest::release);
        waiting.clear();
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("closing connection {}: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }

    private void handle(ChannelHandlerContext ctx, FullHttpRequest request) {
        long receivedNs = System.nanoTime();
        if (!request.decoderResult().isSuccess()) {
            sendError(ctx, HttpResponseStatus.BAD_REQUEST, "malformed HTTP request: " + request.decoderResult().cause(), null)
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        String path = pathOf(request.uri());
        HttpMethod method = request.method();
        switch (path) {
            case "/health" -> requireThen(ctx, request, HttpMethod.GET, () -> sendFull(ctx, HttpResponseStatus.OK, Unpooled.EMPTY_BUFFER, null, null));
            case "/v1/models" -> requireThen(ctx, request, HttpMethod.GET, () -> sendModels(ctx));
            case "/v1/completions" -> requireThen(ctx, request, HttpMethod.POST, () -> generate(ctx, request, Endpoint.COMPLETIONS, receivedNs));
            case "/v1/chat/completions" -> requireThen(ctx, request, HttpMethod.POST, () -> generate(ctx, request, Endpoint.CHAT, receivedNs));
            default -> sendError(ctx, HttpResponseStatus.NOT_FOUND, method + " " + path + " is not served here", null);
        }
    }

    private void requireThen(ChannelHandlerContext ctx, FullHttpRequest request, HttpMethod method, Runnable action) {
        if (request.method().equals(method)) {
            action.run();
        } else {
            sendError(ctx, HttpResponseStatus.METHOD_NOT_ALLOWED, "use " + method + " for " + pathOf(request.uri()), null);
        }
    }

    private void generate(ChannelHandlerContext ctx, FullHttpRequest http, Endpoint endpoint, long receivedNs) {
        String requestId = http.headers().get(REQUEST_ID);
        if (requestId == null || requestId.isBlank()) {
            requestId = "sim-" + counters.requestsReceived.sum();
        }
        GenerationRequest request;
        Fault fault;
        try {
            fault = Fault.parse(http.headers().get(Fault.HEADER));
            request = GenerationRequest.parse(endpoint, ByteBufUtil.getBytes(http.content()), config.defaultMaxTokens());
        } catch (BadRequestException e) {
            sendError(ctx, HttpResponseStatus.BAD_REQUEST, e.getMessage(), requestId);
            return;
        }
        if (fault.status() != 0) {
            sendError(ctx, HttpResponseStatus.valueOf(fault.status()), "simulated failure (" + Fault.HEADER + ")", requestId);
            return;
        }
        ChunkFormat format = new ChunkFormat(endpoint, requestId, config.modelName(), System.currentTimeMillis() / 1000);
        current = new StreamingResponse(ctx, request, requestId, receivedNs, format, config.sendListener(), fault,
                () -> responseEnded(ctx));
        current.start(config.latencyModel());
    }

    private void responseEnded(ChannelHandlerContext ctx) {
        counters.requestsCompleted.increment();
        current = null;
        FullHttpRequest next;
        while (current == null && (next = waiting.poll()) != null) {
            try {
                handle(ctx, next);
            } finally {
                next.release();
            }
        }
    }

    private void sendModels(ChannelHandlerContext ctx) {
        ObjectNode body = JSON.createObjectNode().put("object", "list");
        body.putArray("data").addObject()
                .put("id", config.modelName())
                .put("object", "model")
                .put("created", 0)
                .put("owned_by", "tokenpulse-simulator")
                .put("root", config.modelName());
        byte[] bytes;
        try {
            bytes = JSON.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise the model list", e);
        }
        sendFull(ctx, HttpResponseStatus.OK, Unpooled.wrappedBuffer(bytes), "application/json", null);
    }

    private ChannelFuture sendError(ChannelHandlerContext ctx, HttpResponseStatus status, String message, String requestId) {
        ByteBuf body = ctx.alloc().buffer(256);
        String type = status.code() == 400 ? "BadRequestError" : status.code() == 404 ? "NotFoundError" : status.reasonPhrase().replace(" ", "") + "Error";
        ChunkFormat.errorBody(body, message, type, status.code());
        return sendFull(ctx, status, body, "application/json", requestId);
    }

    private ChannelFuture sendFull(ChannelHandlerContext ctx, HttpResponseStatus status, ByteBuf body,
                                                    String contentType, String requestId) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body);
        if (contentType != null) {
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        }
        if (requestId != null) {
            response.headers().set(REQUEST_ID, requestId);
        }
        if (status.code() == 429) {
            response.headers().set(HttpHeaderNames.RETRY_AFTER, "1");
        }
        HttpUtil.setContentLength(response, body.readableBytes());
        counters.requestsCompleted.increment();
        return ctx.writeAndFlush(response);
    }

    private static String pathOf(String uri) {
        int query = uri.indexOf('?');
        return query < 0 ? uri : uri.substring(0, query);
    }
}
