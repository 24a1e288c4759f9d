package io.tokenpulse.producer.dataset;

import io.tokenpulse.tokenizers.Tokenizer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

/** The datasets by {@code --dataset-name}. Adding one takes a class and a line here. */
public final class Datasets {

    private static final Map<String, BiFunction<DatasetOptions, Tokenizer, Dataset>> SUPPORTED = new LinkedHashMap<>();

    static {
        SUPPORTED.put(ShareGptDataset.NAME, (options, tokenizer) -> ShareGptDataset.load(options, tokenizer));
        SUPPORTED.put(BurstGptDataset.NAME, (options, tokenizer) -> BurstGptDataset.load(options, tokenizer));
        SUPPORTED.put(
                RandomDataset.NAME,
                (options, tokenizer) -> new RandomDataset(tokenizer, options.random(), options.promptStyle()));
        SUPPORTED.put(
                SonnetDataset.NAME,
                (options, tokenizer) ->
                        SonnetDataset.load(options.datasetPath(), tokenizer, options.sonnet(), options.promptStyle()));
        SUPPORTED.put(CustomDataset.NAME, (options, tokenizer) -> CustomDataset.load(options, tokenizer));
        SUPPORTED.put(
                PrefixRepetitionDataset.NAME, (options, tokenizer) -> new PrefixRepetitionDataset(tokenizer, options));
    }

    // vLLM's other --dataset-name choices, recognised so that the message says "not yet", not "unknown".
    private static final List<String> NOT_YET_SUPPORTED = List.of("hf");

    private Datasets() {}

    /** Names {@link #create} accepts, in display order. */
    public static Set<String> names() {
        return SUPPORTED.keySet();
    }

    /**
     * Builds the dataset {@code options.name()} names, reading its file now so that a bad path fails
     * before the run starts.
     *
     * @throws IllegalArgumentException with a one-line message for an unknown or unsupported name,
     *     a missing or unreadable {@code --dataset-path}, or flag values the dataset cannot satisfy
     */
    public static Dataset create(DatasetOptions options, Tokenizer tokenizer) {
        BiFunction<DatasetOptions, Tokenizer, Dataset> factory = SUPPORTED.get(options.name());
        if (factory != null) {
            return factory.apply(options, tokenizer);
        }
        String supported = String.join(", ", SUPPORTED.keySet());
        if (NOT_YET_SUPPORTED.contains(options.name())) {
            throw new IllegalArgumentException(
                    "dataset " + options.name() + " is not supported yet; supported: " + supported);
        }
        throw new IllegalArgumentException(
                "unknown --dataset-name '" + options.name() + "'; choose one of: " + supported);
    }
}
