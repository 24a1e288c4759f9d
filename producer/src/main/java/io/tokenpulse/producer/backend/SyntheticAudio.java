package io.tokenpulse.producer.backend;

import io.tokenpulse.producer.dataset.Wav;

/**
 * The audio openai-audio sends with every prompt of a dataset without audio (every one but the hf
 * dataset's ASR rows): {@value #SECONDS} s of a 440 Hz tone at half
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
        double[] samples = new double[SECONDS * SAMPLE_RATE_HZ];
        for (int i = 0; i < samples.length; i++) {
            samples[i] = 0.5 * Math.sin(2 * Math.PI * TONE_HZ * i / SAMPLE_RATE_HZ);
        }
        return Wav.pcm16(samples, SAMPLE_RATE_HZ);
    }
}
