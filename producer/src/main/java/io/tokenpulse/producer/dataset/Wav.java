package io.tokenpulse.producer.dataset;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import javax.sound.sampled.AudioFileFormat;
import javax.sound.sampled.AudioFormat;
import javax.sound.sampled.AudioInputStream;
import javax.sound.sampled.AudioSystem;

/** WAV files in memory, written by Java's sound API. */
public final class Wav {

    private Wav() {}

    /**
     * Mono 16-bit little-endian PCM WAV of {@code samples}.
     *
     * @param samples in [-1, 1]; values outside are clipped
     */
    public static byte[] pcm16(double[] samples, int samplingRateHz) {
        byte[] pcm = new byte[samples.length * 2];
        for (int i = 0; i < samples.length; i++) {
            short sample = (short) Math.round(Math.max(-1, Math.min(1, samples[i])) * Short.MAX_VALUE);
            pcm[2 * i] = (byte) sample;
            pcm[2 * i + 1] = (byte) (sample >> 8);
        }
        AudioFormat format = new AudioFormat(samplingRateHz, 16, 1, true, false);
        ByteArrayOutputStream out = new ByteArrayOutputStream(pcm.length + 64);
        try {
            AudioSystem.write(
                    new AudioInputStream(new ByteArrayInputStream(pcm), format, samples.length),
                    AudioFileFormat.Type.WAVE,
                    out);
        } catch (IOException e) {
            throw new UncheckedIOException("writing a WAV file to memory failed", e);
        }
        return out.toByteArray();
    }
}
