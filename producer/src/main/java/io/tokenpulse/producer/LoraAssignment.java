package io.tokenpulse.producer;

import java.util.List;
import java.util.Locale;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;

/**
 * Current vLLM's {@code --lora-modules A B ...} with {@code --lora-assignment}: which adapter each
 * request names as its {@code model}. vLLM draws one choice per request up front ({@code random}) or
 * cycles ({@code round-robin}); here the draws come from {@code --seed} (Java's generator, not
 * Python's, so not vLLM's very sequence) and are the same in every shard, so request {@code i} names
 * the same adapter whichever shard sends it. Immutable.
 *
 * @param modules the adapter names, at least one, none blank
 * @param strategy how requests are spread over them
 */
public record LoraAssignment(List<String> modules, Strategy strategy) {

    /** vLLM's {@code --lora-assignment} choices. */
    public enum Strategy {
        RANDOM,
        ROUND_ROBIN;

        /** {@code random} or {@code round-robin}; anything else names the flag and the choices. */
        public static Strategy parse(String name) {
            return switch (name == null ? "" : name.toLowerCase(Locale.ROOT)) {
                case "random" -> RANDOM;
                case "round-robin" -> ROUND_ROBIN;
                default ->
                    throw new IllegalArgumentException(
                            "--lora-assignment must be random or round-robin, got '" + name + "'");
            };
        }
    }

    public LoraAssignment {
        modules = List.copyOf(modules);
        if (modules.isEmpty() || modules.stream().anyMatch(String::isBlank)) {
            throw new IllegalArgumentException("--lora-modules needs at least one name, none blank; got " + modules);
        }
        if (strategy == null) {
            throw new IllegalArgumentException("--lora-assignment is required with --lora-modules");
        }
    }

    /**
     * The adapter of each of {@code requests} requests, by request index; request {@code i} of a longer
     * (duration-mode) run takes entry {@code i % requests}, as it takes that sample.
     */
    public String[] assign(int requests, long seed) {
        String[] models = new String[requests];
        UniformRandomProvider random = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
        for (int i = 0; i < requests; i++) {
            models[i] =
                    modules.get(strategy == Strategy.ROUND_ROBIN ? i % modules.size() : random.nextInt(modules.size()));
        }
        return models;
    }
}
