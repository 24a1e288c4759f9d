package io.tokenpulse.producer.dataset;

import java.nio.file.Path;
import java.util.Objects;

/**
 * The dataset flags of {@code bench}, with vLLM's names and defaults.
 *
 * @param name {@code --dataset-name}
 * @param datasetPath {@code --dataset-path}, or null when not given
 * @param promptStyle whether the backend takes text or chat messages
 * @param random {@code --random-*} flags
 * @param sonnet {@code --sonnet-*} flags
 */
public record DatasetOptions(String name, Path datasetPath, PromptStyle promptStyle, Random random, Sonnet sonnet) {

    public DatasetOptions {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(promptStyle, "promptStyle");
        Objects.requireNonNull(random, "random");
        Objects.requireNonNull(sonnet, "sonnet");
    }

    /** {@code --random-input-len}, {@code --random-output-len}, {@code --random-range-ratio}, {@code --random-prefix-len}. */
    public record Random(int inputLen, int outputLen, double rangeRatio, int prefixLen) {

        public static final Random DEFAULTS = new Random(1024, 128, 0.0, 0);

        public Random {
            if (inputLen < 0) {
                throw new IllegalArgumentException("--random-input-len must be >= 0, got " + inputLen);
            }
            if (outputLen < 0) {
                throw new IllegalArgumentException("--random-output-len must be >= 0, got " + outputLen);
            }
            if (!(rangeRatio >= 0.0 && rangeRatio < 1.0)) {
                throw new IllegalArgumentException("--random-range-ratio must be in [0, 1), got " + rangeRatio);
            }
            if (prefixLen < 0) {
                throw new IllegalArgumentException("--random-prefix-len must be >= 0, got " + prefixLen);
            }
        }
    }

    /** {@code --sonnet-input-len}, {@code --sonnet-output-len}, {@code --sonnet-prefix-len}. */
    public record Sonnet(int inputLen, int outputLen, int prefixLen) {

        public static final Sonnet DEFAULTS = new Sonnet(550, 150, 200);

        public Sonnet {
            if (inputLen < 1) {
                throw new IllegalArgumentException("--sonnet-input-len must be >= 1, got " + inputLen);
            }
            if (outputLen < 1) {
                throw new IllegalArgumentException("--sonnet-output-len must be >= 1, got " + outputLen);
            }
            if (prefixLen < 0) {
                throw new IllegalArgumentException("--sonnet-prefix-len must be >= 0, got " + prefixLen);
            }
        }
    }
}
