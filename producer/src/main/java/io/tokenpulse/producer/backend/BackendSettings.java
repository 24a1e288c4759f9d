package io.tokenpulse.producer.backend;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What every request of a run shares: where it goes, which model, credentials, extra headers
 * and sampling parameters. The API key is never part of {@link #toString()}.
 *
 * @param endpoint full URL requests are sent to (scheme, host, port and the {@code --endpoint}
 *     path)
 * @param model the model name sent in the payload ({@code --served-model-name}, else
 *     {@code --model})
 * @param apiKey sent as {@code Authorization: Bearer} (anthropic-messages: {@code x-api-key}); null or
 *     blank sends no such header
 * @param extraHeaders headers added to every request, overriding the default ones of the same
 *     name; never null
 * @param sampling sampling parameters; never null
 */
public record BackendSettings(
        URI endpoint, String model, String apiKey, Map<String, String> extraHeaders, Sampling sampling) {

    public BackendSettings {
        if (endpoint == null || endpoint.getScheme() == null || endpoint.getHost() == null) {
            throw new IllegalArgumentException(
                    "the endpoint must be an absolute http(s) URL; check --base-url, --host and --port, got "
                            + endpoint);
        }
        if (model == null || model.isBlank()) {
            throw new IllegalArgumentException("--model must not be empty");
        }
        extraHeaders = extraHeaders == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(extraHeaders));
        if (sampling == null) {
            sampling = Sampling.GREEDY;
        }
    }

    @Override
    public String toString() {
        return "BackendSettings[endpoint=" + endpoint + ", model=" + model
                + ", apiKey=" + (apiKey == null || apiKey.isBlank() ? "none" : "***")
                + ", extraHeaders=" + extraHeaders.keySet() + ", sampling=" + sampling + "]";
    }

    /**
     * What vLLM's flags add to every request body: the sampling parameters (null means "not given"
     * and is left out of the payload, except temperature, which defaults to 0 (greedy) as in vLLM's
     * {@code benchmark_serving.py}) and current vLLM's {@code --extra-body}, merged last so that its
     * keys replace the payload's own (vLLM's {@code payload.update(extra_body)}).
     *
     * @param temperature {@code --temperature}, {@code >= 0}
     * @param topP {@code --top-p}, in (0, 1]
     * @param topK {@code --top-k}, -1 (off) or {@code >= 0}
     * @param minP {@code --min-p}, in [0, 1]
     * @param logprobs {@code --logprobs}, {@code >= 0}; completions backends only
     * @param ignoreEos {@code --ignore-eos}: sent as {@code ignore_eos: true} when set
     * @param frequencyPenalty {@code --frequency-penalty}, sent as {@code frequency_penalty}
     * @param presencePenalty {@code --presence-penalty}, sent as {@code presence_penalty}
     * @param repetitionPenalty {@code --repetition-penalty}, {@code > 0}, sent as {@code repetition_penalty}
     * @param extraBody {@code --extra-body}: a JSON object whose members are set on every request
     *     body, or null; copied, never modified
     */
    public record Sampling(
            Double temperature,
            Double topP,
            Integer topK,
            Double minP,
            Integer logprobs,
            boolean ignoreEos,
            Double frequencyPenalty,
            Double presencePenalty,
            Double repetitionPenalty,
            ObjectNode extraBody) {

        /** No flags given: greedy decoding, stop at end-of-sequence. */
        public static final Sampling GREEDY = new Sampling(null, null, null, null, null, false);

        public Sampling {
            if (temperature != null && !(temperature >= 0)) {
                throw new IllegalArgumentException("--temperature must be >= 0, got " + temperature);
            }
            if (topP != null && !(topP > 0 && topP <= 1)) {
                throw new IllegalArgumentException("--top-p must be in (0, 1], got " + topP);
            }
            if (topK != null && topK < -1) {
                throw new IllegalArgumentException("--top-k must be -1 (off) or >= 0, got " + topK);
            }
            if (minP != null && !(minP >= 0 && minP <= 1)) {
                throw new IllegalArgumentException("--min-p must be in [0, 1], got " + minP);
            }
            if (logprobs != null && logprobs < 0) {
                throw new IllegalArgumentException("--logprobs must be >= 0, got " + logprobs);
            }
            finite("--frequency-penalty", frequencyPenalty);
            finite("--presence-penalty", presencePenalty);
            if (repetitionPenalty != null && !(repetitionPenalty > 0 && Double.isFinite(repetitionPenalty))) {
                throw new IllegalArgumentException("--repetition-penalty must be > 0, got " + repetitionPenalty);
            }
            extraBody = extraBody == null ? null : extraBody.deepCopy();
        }

        /** vLLM's sampling flags of mid-2025 benchmark_serving.py only. */
        public Sampling(
                Double temperature, Double topP, Integer topK, Double minP, Integer logprobs, boolean ignoreEos) {
            this(temperature, topP, topK, minP, logprobs, ignoreEos, null, null, null, null);
        }

        private static void finite(String flag, Double value) {
            if (value != null && !Double.isFinite(value)) {
                throw new IllegalArgumentException(flag + " must be a finite number, got " + value);
            }
        }

        /**
         * The names of the flags given ({@code --temperature}, ..., {@code --extra-body}), in this
         * record's order, for a backend to refuse those its request cannot carry.
         */
        List<String> givenFlags() {
            List<String> given = new ArrayList<>();
            addIf(given, temperature != null, "--temperature");
            addIf(given, topP != null, "--top-p");
            addIf(given, topK != null, "--top-k");
            addIf(given, minP != null, "--min-p");
            addIf(given, logprobs != null, "--logprobs");
            addIf(given, ignoreEos, "--ignore-eos");
            addIf(given, frequencyPenalty != null, "--frequency-penalty");
            addIf(given, presencePenalty != null, "--presence-penalty");
            addIf(given, repetitionPenalty != null, "--repetition-penalty");
            addIf(given, extraBody != null, "--extra-body");
            return given;
        }

        private static void addIf(List<String> flags, boolean given, String flag) {
            if (given) {
                flags.add(flag);
            }
        }

        /** The temperature to send: the flag's value, or 0 (greedy) as vLLM defaults. */
        double temperatureOrGreedy() {
            return temperature == null ? 0.0 : temperature;
        }

        @Override
        public ObjectNode extraBody() {
            return extraBody == null ? null : extraBody.deepCopy();
        }
    }
}
