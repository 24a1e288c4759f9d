package io.tokenpulse.simulator.wire;

import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.multipart.Attribute;
import io.netty.handler.codec.http.multipart.DefaultHttpDataFactory;
import io.netty.handler.codec.http.multipart.FileUpload;
import io.netty.handler.codec.http.multipart.HttpPostRequestDecoder;
import io.netty.handler.codec.http.multipart.InterfaceHttpData;
import io.tokenpulse.simulator.engine.PromptCounter;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import javax.sound.sampled.AudioFileFormat;
import javax.sound.sampled.AudioSystem;
import javax.sound.sampled.UnsupportedAudioFileException;

/**
 * Reads vLLM's {@code /v1/audio/transcriptions} request: multipart/form-data with a {@code file} part
 * and flat fields ({@code model}, {@code max_completion_tokens}, {@code stream},
 * {@code stream_include_usage}, {@code stream_continuous_usage_stats}, {@code prompt}, ...).
 *
 * <p>The audio must be WAV, AIFF or AU (what the JDK's {@code javax.sound} reads; vLLM decodes more).
 * Its prompt length is what vLLM reports for Whisper: the text prompt's tokens plus one token per
 * log-mel frame, {@value #FRAMES_PER_SECOND} per second of audio (16 kHz, hop length 160).
 */
public final class TranscriptionForm {

    static final int FRAMES_PER_SECOND = 100;

    private TranscriptionForm() {}

    public static GenerationRequest parse(FullHttpRequest http, int defaultMaxTokens, PromptCounter counter)
            throws BadRequestException {
        String contentType = http.headers().get(HttpHeaderNames.CONTENT_TYPE, "");
        if (!contentType.toLowerCase(Locale.ROOT).startsWith("multipart/form-data")) {
            throw new BadRequestException(
                    "send multipart/form-data with the audio in a 'file' part, got content-type '" + contentType + "'");
        }
        Map<String, String> fields = new HashMap<>();
        byte[] audio = null;
        // in memory: the aggregated request is in memory already
        HttpPostRequestDecoder decoder = new HttpPostRequestDecoder(new DefaultHttpDataFactory(false), http);
        try {
            for (InterfaceHttpData data : decoder.getBodyHttpDatas()) {
                if (data instanceof FileUpload file && file.getName().equals("file")) {
                    audio = file.get();
                } else if (data instanceof Attribute attribute) {
                    fields.put(attribute.getName(), attribute.getValue());
                }
            }
        } catch (HttpPostRequestDecoder.ErrorDataDecoderException e) {
            throw new BadRequestException("malformed multipart body: " + e.getMessage());
        } catch (IOException e) {
            throw new UncheckedIOException("reading a form field from memory failed", e);
        } finally {
            decoder.destroy();
        }
        if (audio == null) {
            throw new BadRequestException("the form has no 'file' part with the audio");
        }
        double seconds = seconds(audio);
        int promptTokens =
                counter.countText(fields.getOrDefault("prompt", "")) + (int) Math.ceil(seconds * FRAMES_PER_SECOND);
        String max = fields.get("max_completion_tokens");
        int maxTokens = defaultMaxTokens;
        if (max != null && !max.equals("None")) {
            try {
                maxTokens = Integer.parseInt(max.strip());
            } catch (NumberFormatException e) {
                maxTokens = 0;
            }
            if (maxTokens < 1) {
                throw new BadRequestException("max_completion_tokens must be an integer >= 1, got '" + max + "'");
            }
        }
        boolean includeUsage = flag(fields, "stream_include_usage");
        return new GenerationRequest(
                Endpoint.TRANSCRIPTION,
                fields.get("model"),
                flag(fields, "stream"),
                includeUsage,
                includeUsage && flag(fields, "stream_continuous_usage_stats"),
                promptTokens,
                // vLLM does not prefix-cache encoder-decoder models such as Whisper
                new int[0],
                maxTokens,
                max != null && !max.equals("None"),
                0,
                false);
    }

    /** Python's str(True) is "True": form booleans compare without case. */
    private static boolean flag(Map<String, String> fields, String name) {
        return Boolean.parseBoolean(fields.getOrDefault(name, "false").strip());
    }

    private static double seconds(byte[] audio) throws BadRequestException {
        try {
            AudioFileFormat format = AudioSystem.getAudioFileFormat(new ByteArrayInputStream(audio));
            if (format.getFrameLength() < 0 || !(format.getFormat().getFrameRate() > 0)) {
                throw new BadRequestException("the audio file does not say how long it is");
            }
            return format.getFrameLength() / (double) format.getFormat().getFrameRate();
        } catch (UnsupportedAudioFileException e) {
            throw new BadRequestException(
                    "the 'file' part is not audio the simulator can read; send WAV (or AIFF, AU)");
        } catch (IOException e) {
            throw new UncheckedIOException("reading audio from memory failed", e);
        }
    }
}
