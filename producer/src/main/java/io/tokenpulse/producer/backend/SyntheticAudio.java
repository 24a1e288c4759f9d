package io.tokenpulse.producer.backend;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import javax.sound.sampled.AudioFileFormat;
import javax.sound.sampled.AudioFormat;
import javax.sound.sampled.AudioInputStream;
import javax.sound.sampled.AudioSystem;

/**
 * The audio openai-audio sends with every prompt, since no dataset here carries audio (vLLM's
 * ASR datasets come from the Hugging Face hub): {@value #SECONDS} s of a 440 Hz tone at half
 * scale, 16 kHz mono 16-bit PCM WAV (Whisper's sampling rate), the same bytes for every request.
 */
final class SyntheticAudio {

    static final int SECONDS = 5;
    static final int SAMPLE_RATE_HZ = 16_000;
    private static final double TONE_HZ = 440;

    /** The WAV file, built once; do not modify. */
    static final byte[] WAV = wav();

    private SyntheticAudio() {}

    private static byte[] wav() {
        int frames = SECONDS * SAMPLE_RATE_HZ;
        byte[] pcm = new byte[frames * 2];
        for (int i = 0; i < frames; i++) {
            short sample = (short) (Short.MAX_VALUE / 2 * Math.sin(2 * Math.PI * TONE_HZ * i / SAMPLE_RATE_HZ));
            pcm[2 * i] = (byte) sample; // little-endian
            pcm[2 * i + 1] = (byte) (sample >> 8);
        }
        AudioFormat format = new AudioFormat(SAMPLE_RATE_HZ, 16, 1, true, false);
        ByteArrayOutputStream out = new ByteArrayOutputStream(pcm.length + 64);
        try {
            AudioSystem.write(
                    new AudioInputStream(new ByteArrayInputStream(pcm), format, frames),
                    AudioFileFormat.Type.WAVE,
                    out);
        } catch (IOException e) {
            throw new UncheckedIOException("writing a WAV file to memory failed", e);
        }
        return out.toByteArray();
    }
}
