package io.tokenpulse.producer.backend;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.multipart.DefaultHttpDataFactory;
import io.netty.handler.codec.http.multipart.HttpPostRequestEncoder;
import io.netty.handler.codec.http.multipart.MemoryFileUpload;
import io.tokenpulse.producer.dataset.Prompt;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * vLLM's {@code /v1/audio/transcriptions} (or {@code translations}) as its
 * {@code async_request_openai_audio} speaks it: multipart/form-data with the audio as
 * {@code file} and flat fields {@code model}, {@code temperature=0.0}, {@code max_completion_tokens},
 * {@code stream=True}, {@code language=en}, {@code stream_include_usage=True},
 * {@code stream_continuous_usage_stats=True}; the answer is read like a chat stream
 * ({@code delta.content}, usage on every chunk and in the tail).
 *
 * <p>The prompt text is not sent (vLLM's client does not send it either); a request carries its
 * dataset row's WAV (the hf dataset's ASR layout), else {@link SyntheticAudio}'s
 * {@value SyntheticAudio#SECONDS} s tone, so any text dataset works, e.g. {@code --dataset-name
 * random}, and input tokens are what the server reports in usage.
 */
final class OpenAiAudioBackend implements Backend {

    private static final EventParser READER = new EventReader(EventReader.TextField.DELTA_CONTENT);

    @Override
    public String name() {
        return "openai-audio";
    }

    @Override
    public void check(BackendSettings settings) {
        RequestParts.pathEndsWith(name(), settings, "transcriptions", "translations");
        RequestParts.refuseSampling(name(), settings.sampling());
        RequestParts.refuseIgnoreEos(name(), settings.sampling());
    }

    @Override
    public HttpCall buildRequest(BackendSettings settings, PromptRequest request) {
        check(settings);
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("model", request.modelOr(settings.model()));
        fields.put("temperature", "0.0");
        fields.put("max_completion_tokens", Integer.toString(request.maxTokens()));
        // Python's str(True): the form carries vLLM's spelling
        fields.put("stream", "True");
        fields.put("language", "en");
        fields.put("stream_include_usage", "True");
        fields.put("stream_continuous_usage_stats", "True");
        Multipart form = multipart(request.audioWav() != null ? request.audioWav() : SyntheticAudio.WAV, fields);
        return new HttpCall(
                settings.endpoint(), RequestParts.headers(settings, request, form.contentType(), true), form.body());
    }

    @Override
    public ResponseTracker newResponse() {
        return new ResponseTracker(READER, true, true);
    }

    /** The dataset's clip, else the synthetic tone: what {@link #buildRequest} sends. */
    @Override
    public double inputAudioSeconds(Prompt prompt) {
        return prompt instanceof Prompt.Audio clip ? clip.seconds() : SyntheticAudio.SECONDS;
    }

    private record Multipart(String contentType, byte[] body) {}

    /** Netty's encoder writes the parts and picks the boundary; the body is collected into one array. */
    private static Multipart multipart(byte[] wav, Map<String, String> fields) {
        HttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/");
        DefaultHttpDataFactory memory = new DefaultHttpDataFactory(false);
        try {
            HttpPostRequestEncoder encoder = new HttpPostRequestEncoder(memory, request, true);
            MemoryFileUpload file = new MemoryFileUpload("file", "audio.wav", "audio/wav", null, null, wav.length);
            file.setContent(Unpooled.wrappedBuffer(wav));
            encoder.addBodyHttpData(file);
            for (Map.Entry<String, String> field : fields.entrySet()) {
                encoder.addBodyAttribute(field.getKey(), field.getValue());
            }
            HttpRequest finalized = encoder.finalizeRequest();
            ByteArrayOutputStream body = new ByteArrayOutputStream(wav.length + 2048);
            if (encoder.isChunked()) {
                while (!encoder.isEndOfInput()) {
                    HttpContent chunk = encoder.readChunk(ByteBufAllocator.DEFAULT);
                    copy(chunk.content(), body);
                    chunk.release();
                }
            } else {
                copy(((FullHttpRequest) finalized).content(), body);
            }
            encoder.cleanFiles();
            return new Multipart(finalized.headers().get(HttpHeaderNames.CONTENT_TYPE), body.toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException("building a form in memory failed", e);
        } catch (Exception e) { // the encoder's readChunk declares Exception; in memory nothing else can fail
            throw new IllegalStateException("bug: building the multipart form failed: " + e, e);
        } finally {
            memory.cleanAllHttpData();
            ((FullHttpRequest) request).release();
        }
    }

    private static void copy(ByteBuf content, ByteArrayOutputStream out) {
        byte[] bytes = new byte[content.readableBytes()];
        content.readBytes(bytes);
        out.writeBytes(bytes);
    }
}
