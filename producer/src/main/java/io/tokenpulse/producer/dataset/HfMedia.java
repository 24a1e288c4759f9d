package io.tokenpulse.producer.dataset;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLConnection;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import javax.sound.sampled.AudioFileFormat;
import javax.sound.sampled.AudioSystem;
import javax.sound.sampled.UnsupportedAudioFileException;

/**
 * The images and audio of {@code hf} dataset rows, as the {@code datasets} library stores its
 * {@code Image} and {@code Audio} features: a {@code {bytes, path}} struct (Parquet; {@link HfRows}
 * gives its bytes in DuckDB's text form of a BLOB), a decoded {@code {array, sampling_rate}} clip,
 * or a path or URL string. Images become the URLs {@code openai-chat} sends (vLLM re-encodes them as
 * JPEG; here the file's own bytes go as they are); audio becomes the WAV {@code openai-audio} sends,
 * read here so that a clip that is no WAV fails before the run. Only sampled rows get here
 * ({@link HfRows#media}).
 */
final class HfMedia {

    /**
     * A clip as {@code openai-audio} sends it.
     *
     * @param wav a WAV file's bytes
     * @param durationS its length in seconds, which {@code --asr-*-audio-len-sec} bound
     */
    record Clip(byte[] wav, double durationS) {}

    private HfMedia() {}

    /**
     * @throws IllegalArgumentException naming {@code where} and what was expected
     */
    static String imageUrl(Path file, String where, JsonNode image) {
        String bytes = text(image, "bytes");
        if (bytes != null) {
            byte[] data = blob(bytes);
            String type = imageType(data, text(image, "path"));
            if (type == null) {
                throw new IllegalArgumentException("--dataset-path " + file + ": " + where
                        + ": the image's bytes are no JPEG, PNG, GIF or WebP file");
            }
            return "data:" + type + ";base64," + Base64.getEncoder().encodeToString(data);
        }
        String reference = image.isTextual() ? image.asText() : text(image, "path");
        if (reference == null || reference.isEmpty()) {
            throw new IllegalArgumentException("--dataset-path " + file + ": " + where + ": an image is "
                    + image.getNodeType().name().toLowerCase()
                    + "; expected a path or URL, or {\"bytes\": ..., \"path\": ...}");
        }
        ImageUrl.check(file, where, reference);
        return ImageUrl.of(file, where, reference);
    }

    /**
     * @throws IllegalArgumentException naming {@code where} when the clip is missing or no WAV file
     *     that Java's sound API reads (PCM; FLAC and MP3 must be converted first)
     */
    static Clip clip(Path file, String where, JsonNode audio) {
        if (audio == null || audio.isNull()) {
            throw new IllegalArgumentException("--dataset-path " + file + ": " + where
                    + ": \"audio\" is missing; expected one clip per row (ASR layout)");
        }
        JsonNode array = audio.get("array");
        if (array != null && array.isArray() && audio.path("sampling_rate").canConvertToInt()) {
            int samplingRate = audio.get("sampling_rate").asInt();
            return new Clip(pcm16Wav(array, samplingRate), (double) array.size() / samplingRate);
        }
        String bytes = text(audio, "bytes");
        if (bytes != null) {
            return checkedWav(file, where, "its bytes", blob(bytes));
        }
        String reference = audio.isTextual() ? audio.asText() : text(audio, "path");
        if (reference == null || reference.isEmpty()) {
            throw new IllegalArgumentException("--dataset-path " + file + ": " + where + ": \"audio\" is "
                    + audio.getNodeType().name().toLowerCase()
                    + "; expected {\"array\": [...], \"sampling_rate\": N}, {\"bytes\": ..., \"path\": ...} or a"
                    + " path of a WAV file");
        }
        Path clip = ImageUrl.resolve(file, where, "audio", reference);
        try {
            return checkedWav(file, where, clip.toString(), Files.readAllBytes(clip));
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "--dataset-path " + file + ": " + where + ": audio " + clip + " cannot be read ("
                            + e.getClass().getSimpleName() + "); relative paths start at the dataset file's folder");
        }
    }

    /**
     * DuckDB's text form of a BLOB, as its {@code to_json} writes it: printable ASCII as itself,
     * every other byte (and the backslash and quote) as {@code \xHH}.
     */
    static byte[] blob(String text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\' && i + 3 < text.length() && text.charAt(i + 1) == 'x') {
                out.write(Integer.parseInt(text, i + 2, i + 4, 16));
                i += 3;
            } else {
                out.write(c);
            }
        }
        return out.toByteArray();
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value != null && value.isTextual() ? value.asText() : null;
    }

    private static String imageType(byte[] data, String name) {
        if (data.length > 12
                && new String(data, 0, 4, StandardCharsets.US_ASCII).equals("RIFF")
                && new String(data, 8, 4, StandardCharsets.US_ASCII).equals("WEBP")) {
            return "image/webp"; // the JDK's sniffer does not know WebP
        }
        try {
            String type = URLConnection.guessContentTypeFromStream(new ByteArrayInputStream(data));
            if (type == null && name != null) {
                type = URLConnection.guessContentTypeFromName(name);
            }
            return type != null && type.startsWith("image/") ? type : null;
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array cannot fail to read
        }
    }

    private static Clip checkedWav(Path file, String where, String what, byte[] data) {
        try {
            AudioFileFormat format = AudioSystem.getAudioFileFormat(new ByteArrayInputStream(data));
            if (format.getType() != AudioFileFormat.Type.WAVE) {
                throw new UnsupportedAudioFileException(format.getType().toString());
            }
            return new Clip(
                    data, format.getFrameLength() / (double) format.getFormat().getFrameRate());
        } catch (UnsupportedAudioFileException | IOException e) {
            throw new IllegalArgumentException(
                    "--dataset-path " + file + ": " + where + ": the audio (" + what + ") is not a WAV file Java reads"
                            + " (it starts with \""
                            + new String(data, 0, Math.min(4, data.length), StandardCharsets.US_ASCII)
                                    .replaceAll("[^\\x20-\\x7E]", "?")
                            + "\"); convert the clips to PCM WAV (e.g. ffmpeg -i clip.flac clip.wav)");
        }
    }

    /** A decoded clip as 16-bit PCM WAV, as vLLM's client writes it with soundfile. */
    private static byte[] pcm16Wav(JsonNode array, int samplingRate) {
        double[] samples = new double[array.size()];
        for (int i = 0; i < samples.length; i++) {
            samples[i] = array.get(i).asDouble();
        }
        return Wav.pcm16(samples, samplingRate);
    }
}
