package io.tokenpulse.simulator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
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
import io.tokenpulse.simulator.engine.OutputLengths;
import io.tokenpulse.simulator.faults.Fault;
import io.tokenpulse.simulator.faults.FaultPlan;
import io.tokenpulse.simulator.wire.BadRequestException;
import io.tokenpulse.simulator.wire.ChunkFormat;
import io.tokenpulse.simulator.wire.Endpoint;
import io.tokenpulse.simulator.wire.GenerationRequest;
import io.tokenpulse.simulator.wire.MessageApiRequests;
import io.tokenpulse.simulator.wire.PoolingEndpoint;
import io.tokenpulse.simulator.wire.PoolingRequest;
import io.tokenpulse.simulator.wire.TranscriptionForm;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
    /** Model names of the TensorRT-LLM backend's Triton repository that serve generate_stream. */
    private static final Set<String> TRITON_MODELS = Set.of("ensemble", "tensorrt_llm_bls");

    private final SimulatorConfig config;
    private final Counters counters;
    private final OutputLengths.Sampler outputLengths;
    private final FaultPlan.Drawer faults;
    private final ServerMetrics metrics;
    private final ArrayDeque<FullHttpRequest> waiting = new ArrayDeque<>();
    private ResponseInProgress current;

    /** @param outputLengths, {@code faults} and {@code metrics} are the server's, shared by all its connections */
    SimulatorHandler(
            SimulatorConfig config,
            Counters counters,
            OutputLengths.Sampler outputLengths,
            FaultPlan.Drawer faults,
            ServerMetrics metrics) {
        this.config = config;
        this.counters = counters;
        this.outputLengths = outputLengths;
        this.faults = faults;
        this.metrics = metrics;
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
            sendError(
                            ctx,
                            HttpResponseStatus.BAD_REQUEST,
                            "malformed HTTP request: " + request.decoderResult().cause(),
                            null)
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        String path = pathOf(request.uri());
        HttpMethod method = request.method();
        switch (path) {
            case "/health" ->
                requireThen(
                        ctx,
                        request,
                        HttpMethod.GET,
                        () -> sendFull(ctx, HttpResponseStatus.OK, Unpooled.EMPTY_BUFFER, null, null));
            case "/v1/models" -> requireThen(ctx, request, HttpMethod.GET, () -> sendModels(ctx));
            case "/metrics" -> requireThen(ctx, request, HttpMethod.GET, () -> sendMetrics(ctx));
            case "/v1/completions" ->
                requireThen(
                        ctx, request, HttpMethod.POST, () -> generate(ctx, request, Endpoint.COMPLETIONS, receivedNs));
            case "/v1/chat/completions" ->
                requireThen(ctx, request, HttpMethod.POST, () -> generate(ctx, request, Endpoint.CHAT, receivedNs));
            case "/v1/audio/transcriptions" ->
                requireThen(
                        ctx,
                        request,
                        HttpMethod.POST,
                        () -> generate(ctx, request, Endpoint.TRANSCRIPTION, receivedNs));
            case "/v1/responses" ->
                requireThen(
                        ctx, request, HttpMethod.POST, () -> generate(ctx, request, Endpoint.RESPONSES, receivedNs));
            case "/v1/messages" ->
                requireThen(ctx, request, HttpMethod.POST, () -> generate(ctx, request, Endpoint.MESSAGES, receivedNs));
            case "/generate_stream" ->
                requireThen(ctx, request, HttpMethod.POST, () -> generate(ctx, request, Endpoint.TGI, receivedNs));
            case "/start_profile" ->
                requireThen(ctx, request, HttpMethod.POST, () -> profile(ctx, counters.profileStarts));
            case "/stop_profile" ->
                requireThen(ctx, request, HttpMethod.POST, () -> profile(ctx, counters.profileStops));
            default -> {
                PoolingEndpoint pooling = PoolingEndpoint.at(path);
                if (pooling != null) {
                    requireThen(ctx, request, HttpMethod.POST, () -> pool(ctx, request, pooling, receivedNs));
                } else if (tritonModel(path) != null) {
                    requireThen(
                            ctx, request, HttpMethod.POST, () -> generate(ctx, request, Endpoint.TRITON, receivedNs));
                } else {
                    sendError(ctx, HttpResponseStatus.NOT_FOUND, method + " " + path + " is not served here", null);
                }
            }
        }
    }

    /** vLLM answers the profiler endpoints with an empty 200; counted so a test can see the calls. */
    private void profile(ChannelHandlerContext ctx, LongAdder calls) {
        calls.increment();
        sendFull(ctx, HttpResponseStatus.OK, Unpooled.EMPTY_BUFFER, null, null);
    }

    /** The model of a Triton {@code /v2/models/<model>/generate_stream} path, else null. */
    private static String tritonModel(String path) {
        String prefix = "/v2/models/";
        String suffix = "/generate_stream";
        if (!path.startsWith(prefix) || !path.endsWith(suffix) || path.length() <= prefix.length() + suffix.length()) {
            return null;
        }
        String model = path.substring(prefix.length(), path.length() - suffix.length());
        return model.contains("/") ? null : model;
    }

    /** Whether a request may name {@code model}: a served name, or for Triton the TensorRT-LLM repository's models. */
    private boolean serves(Endpoint endpoint, String model) {
        return config.serves(model) || endpoint == Endpoint.TRITON && TRITON_MODELS.contains(model);
    }

    private GenerationRequest parse(FullHttpRequest http, Endpoint endpoint) throws BadRequestException {
        return switch (endpoint) {
            case TRANSCRIPTION -> TranscriptionForm.parse(http, config.defaultMaxTokens(), config.promptCounter());
            case RESPONSES ->
                MessageApiRequests.responses(
                        ByteBufUtil.getBytes(http.content()), config.defaultMaxTokens(), config.promptCounter());
            case MESSAGES -> MessageApiRequests.messages(ByteBufUtil.getBytes(http.content()), config.promptCounter());
            case TRITON ->
                GenerationRequest.parseTriton(
                        ByteBufUtil.getBytes(http.content()),
                        tritonModel(pathOf(http.uri())),
                        config.defaultMaxTokens(),
                        config.promptCounter());
            default ->
                GenerationRequest.parse(
                        endpoint,
                        ByteBufUtil.getBytes(http.content()),
                        config.defaultMaxTokens(),
                        config.promptCounter());
        };
    }

    private void requireThen(ChannelHandlerContext ctx, FullHttpRequest request, HttpMethod method, Runnable action) {
        if (request.method().equals(method)) {
            action.run();
        } else {
            sendError(
                    ctx,
                    HttpResponseStatus.METHOD_NOT_ALLOWED,
                    "use " + method + " for " + pathOf(request.uri()),
                    null);
        }
    }

    private void generate(ChannelHandlerContext ctx, FullHttpRequest http, Endpoint endpoint, long receivedNs) {
        String requestId = requestIdOf(http);
        if (http.headers().contains(ServerMetrics.SESSION_HEADER)) {
            metrics.sessionRequest();
        }
        GenerationRequest request;
        Fault fault;
        try {
            fault = faults.next(Fault.parse(http.headers().get(Fault.HEADER)));
            request = parse(http, endpoint);
        } catch (BadRequestException e) {
            sendError(ctx, HttpResponseStatus.BAD_REQUEST, e.getMessage(), requestId);
            return;
        } catch (IllegalStateException e) {
            // the tokenizer's chat template failed on these messages
            sendError(
                    ctx,
                    HttpResponseStatus.BAD_REQUEST,
                    "cannot apply the chat template: " + e.getMessage(),
                    requestId);
            return;
        }
        if (request.model() != null && !serves(endpoint, request.model())) {
            sendModelNotFound(ctx, request.model(), requestId);
            return;
        }
        String tooLong = contextLengthError(request);
        if (tooLong != null) {
            sendError(ctx, HttpResponseStatus.BAD_REQUEST, tooLong, requestId);
            return;
        }
        if (fault.failsBeforeStreaming()) {
            sendFailure(ctx, fault, requestId);
            return;
        }
        int maxTokens = request.maxTokensGiven()
                ? request.maxTokens()
                : Math.min(request.maxTokens(), config.maxModelLen() - request.promptTokens());
        int outputTokens = request.ignoreEos()
                ? maxTokens
                : Math.max(Math.min(request.minTokens(), maxTokens), outputLengths.next(maxTokens));
        ChunkFormat format = ChunkFormat.of(
                request,
                requestId,
                // an adapter's chunks name the adapter, as vLLM's do
                request.model() != null && config.loraModules().contains(request.model())
                        ? request.model()
                        : config.modelName(),
                System.currentTimeMillis() / 1000,
                config.promptCounter().outputWord(),
                config.reasoningTokens());
        StreamingResponse streaming = new StreamingResponse(
                ctx,
                request,
                outputTokens,
                requestId,
                receivedNs,
                format,
                config.sendListener(),
                fault,
                metrics,
                config.promptTokensDetails(),
                () -> responseEnded(ctx));
        current = streaming;
        streaming.start(config.latencyModel());
    }

    /**
     * A pooling request: parsed, checked like a generation request (model, faults before the answer),
     * then run by the engine as a prefill that ends in one JSON answer ({@link PoolingResponse}).
     */
    private void pool(ChannelHandlerContext ctx, FullHttpRequest http, PoolingEndpoint endpoint, long receivedNs) {
        String requestId = requestIdOf(http);
        PoolingRequest request;
        Fault fault;
        try {
            fault = faults.next(Fault.parse(http.headers().get(Fault.HEADER)));
            request = PoolingRequest.parse(
                    endpoint, ByteBufUtil.getBytes(http.content()), config.promptCounter(), config.maxModelLen());
        } catch (BadRequestException e) {
            sendError(ctx, HttpResponseStatus.BAD_REQUEST, e.getMessage(), requestId);
            return;
        }
        if (request.model() != null && !config.serves(request.model())) {
            sendModelNotFound(ctx, request.model(), requestId);
            return;
        }
        if (fault.failsBeforeStreaming()) {
            sendFailure(ctx, fault, requestId);
            return;
        }
        PoolingResponse response = new PoolingResponse(
                ctx, request, requestId, config.modelName(), receivedNs, metrics, () -> responseEnded(ctx));
        current = response;
        response.start(config.latencyModel());
    }

    /** The request's x-request-id, or one the server makes up. */
    private String requestIdOf(FullHttpRequest http) {
        String requestId = http.headers().get(REQUEST_ID);
        return requestId == null || requestId.isBlank() ? "sim-" + counters.requestsReceived.sum() : requestId;
    }

    /** vLLM's 404 for a model it does not serve. */
    private void sendModelNotFound(ChannelHandlerContext ctx, String model, String requestId) {
        sendError(ctx, HttpResponseStatus.NOT_FOUND, "The model `" + model + "` does not exist.", requestId);
    }

    /** A fault's failure before any answer: its status and Retry-After. */
    private void sendFailure(ChannelHandlerContext ctx, Fault fault, String requestId) {
        sendError(
                ctx,
                HttpResponseStatus.valueOf(fault.status()),
                "simulated failure",
                requestId,
                fault.retryAfterSeconds());
    }

    /** vLLM's wording for a prompt (plus max_tokens) beyond the context length, else null. */
    private String contextLengthError(GenerationRequest request) {
        int limit = config.maxModelLen();
        int prompt = request.promptTokens();
        if (prompt >= limit) {
            return "This model's maximum context length is " + limit + " tokens. However, your request has " + prompt
                    + " input tokens. Please reduce the length of the input messages.";
        }
        if (request.maxTokensGiven() && prompt + request.maxTokens() > limit) {
            return "'max_tokens' or 'max_completion_tokens' is too large: " + request.maxTokens()
                    + ". This model's maximum context length is " + limit + " tokens and your request has " + prompt
                    + " input tokens (" + request.maxTokens() + " > " + limit + " - " + prompt + ").";
        }
        return null;
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

    private void sendMetrics(ChannelHandlerContext ctx) {
        ByteBuf body = ctx.alloc().buffer(16 * 1024);
        try (ByteBufOutputStream out = new ByteBufOutputStream(body)) {
            metrics.write(out);
        } catch (IOException e) {
            body.release();
            throw new UncheckedIOException("cannot write the metrics", e);
        }
        sendFull(ctx, HttpResponseStatus.OK, body, metrics.contentType(), null);
    }

    private void sendModels(ChannelHandlerContext ctx) {
        ObjectNode body = JSON.createObjectNode().put("object", "list");
        var data = body.putArray("data");
        for (String name : config.servedModelNames()) {
            if (!name.equals(SimulatorConfig.ANY_MODEL)) {
                data.addObject()
                        .put("id", name)
                        .put("object", "model")
                        .put("created", 0)
                        .put("owned_by", "tokenpulse-simulator")
                        .put("root", name)
                        .put("max_model_len", config.maxModelLen());
            }
        }
        for (String lora : config.loraModules()) {
            // vLLM lists an adapter with its path as root and the base model as parent
            data.addObject()
                    .put("id", lora)
                    .put("object", "model")
                    .put("created", 0)
                    .put("owned_by", "tokenpulse-simulator")
                    .put("root", "/simulated/lora/" + lora)
                    .put("parent", config.modelName())
                    .put("max_model_len", config.maxModelLen());
        }
        byte[] bytes;
        try {
            bytes = JSON.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise the model list", e);
        }
        sendFull(ctx, HttpResponseStatus.OK, Unpooled.wrappedBuffer(bytes), "application/json", null);
    }

    private ChannelFuture sendError(
            ChannelHandlerContext ctx, HttpResponseStatus status, String message, String requestId) {
        return sendError(ctx, status, message, requestId, 1);
    }

    private ChannelFuture sendError(
            ChannelHandlerContext ctx,
            HttpResponseStatus status,
            String message,
            String requestId,
            int retryAfterSeconds) {
        ByteBuf body = ctx.alloc().buffer(256);
        String type = status.code() == 400
                ? "BadRequestError"
                : status.code() == 404 ? "NotFoundError" : status.reasonPhrase().replace(" ", "") + "Error";
        ChunkFormat.errorBody(body, message, type, status.code());
        FullHttpResponse response = response(status, body, "application/json", requestId);
        if (status.code() == 429) {
            response.headers().set(HttpHeaderNames.RETRY_AFTER, Integer.toString(retryAfterSeconds));
        }
        counters.requestsCompleted.increment();
        return ctx.writeAndFlush(response);
    }

    private ChannelFuture sendFull(
            ChannelHandlerContext ctx, HttpResponseStatus status, ByteBuf body, String contentType, String requestId) {
        counters.requestsCompleted.increment();
        return ctx.writeAndFlush(response(status, body, contentType, requestId));
    }

    private static FullHttpResponse response(
            HttpResponseStatus status, ByteBuf body, String contentType, String requestId) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body);
        if (contentType != null) {
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        }
        if (requestId != null) {
            response.headers().set(REQUEST_ID, requestId);
        }
        HttpUtil.setContentLength(response, body.readableBytes());
        return response;
    }

    private static String pathOf(String uri) {
        int query = uri.indexOf('?');
        return query < 0 ? uri : uri.substring(0, query);
    }
}
