package io.tokenpulse.aggregator.report;

import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The options of a run that the report shows or saves, as the user gave them.
 *
 * @param date           start of the run, formatted by {@link #formatDate} ({@code yyyyMMdd-HHmmss})
 * @param backend        backend name, e.g. {@code vllm}
 * @param modelId        {@code --model}
 * @param tokenizerId    {@code --tokenizer}, or the model when not given
 * @param numPrompts     {@code --num-prompts}
 * @param requestRate    {@code --request-rate} per second; {@link Double#POSITIVE_INFINITY} for inf
 * @param burstiness     {@code --burstiness}
 * @param maxConcurrency {@code --max-concurrency}, empty when not given
 * @param rampUp         {@code --ramp-up-*} as vLLM writes them, empty without a ramp-up
 */
public record RunConfig(
        String date,
        String backend,
        String modelId,
        String tokenizerId,
        int numPrompts,
        double requestRate,
        double burstiness,
        OptionalInt maxConcurrency,
        Optional<RampUpKeys> rampUp) {

    // vLLM: datetime.now().strftime("%Y%m%d-%H%M%S"), local time.
    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    public RunConfig {
        if (date.isBlank() || backend.isBlank() || modelId.isBlank() || tokenizerId.isBlank()) {
            throw new IllegalArgumentException("date, backend, model and tokenizer must not be blank");
        }
        if (numPrompts < 0 || !(requestRate > 0) || !(burstiness > 0)) {
            throw new IllegalArgumentException("need num prompts >= 0, request rate > 0 and burstiness > 0, got "
                    + numPrompts + ", " + requestRate + ", " + burstiness);
        }
        if (maxConcurrency.isPresent() && maxConcurrency.getAsInt() < 1) {
            throw new IllegalArgumentException("--max-concurrency must be >= 1, got " + maxConcurrency.getAsInt());
        }
    }

    /** The {@code date} text vLLM writes for a local date-time. */
    public static String formatDate(LocalDateTime localTime) {
        return DATE.format(localTime);
    }
}
