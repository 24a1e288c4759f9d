package io.tokenpulse.aggregator.report;

import io.tokenpulse.aggregator.metrics.RequestReasoning;
import io.tokenpulse.aggregator.metrics.RequestValues;
import java.util.Arrays;
import java.util.List;

/**
 * One request's entry in the {@code --save-detailed} lists, in vLLM's units (seconds).
 *
 * @param inputLen      prompt tokens ({@code input_lens})
 * @param outputLen     output tokens, 0 for a failure ({@code output_lens})
 * @param ttftS         TTFT in seconds, 0 when no event arrived ({@code ttfts})
 * @param ttfoS         time to first output token in seconds, 0 when no answer text arrived ({@code ttfos},
 *                      written for reasoning runs only; extension)
 * @param itlS          ITL samples in seconds ({@code itls})
 * @param startTimeS    when the request was sent, in seconds ({@code start_times}; vLLM's is its monotonic
 *                      clock, ours the wall clock since the Unix epoch: both only for differences)
 * @param generatedText the generated text, empty when not kept ({@code generated_texts})
 * @param error         the failure reason, empty on success ({@code errors})
 */
public record RequestDetail(
        int inputLen,
        int outputLen,
        double ttftS,
        double ttfoS,
        List<Double> itlS,
        double startTimeS,
        String generatedText,
        String error) {

    private static final double NS_PER_SECOND = 1e9;

    public RequestDetail {
        if (inputLen < 0 || outputLen < 0 || !(ttftS >= 0) || !(ttfoS >= 0)) {
            throw new IllegalArgumentException("need lengths >= 0 and TTFT, TTFO >= 0, got " + inputLen + ", "
                    + outputLen + ", " + ttftS + ", " + ttfoS);
        }
        itlS = List.copyOf(itlS);
    }

    /** The entry of a request: vLLM keeps a failure's partial TTFT and ITLs but counts 0 output tokens. */
    public static RequestDetail of(
            RequestValues request, RequestReasoning reasoning, String generatedText, String error) {
        return new RequestDetail(
                request.promptTokens(),
                request.success() ? request.outputTokens() : 0,
                request.ttftNs() / NS_PER_SECOND,
                reasoning.ttfoNs().orElse(0) / NS_PER_SECOND,
                Arrays.stream(request.itlNs())
                        .mapToObj(ns -> ns / NS_PER_SECOND)
                        .toList(),
                request.sentNs() / NS_PER_SECOND,
                generatedText,
                error);
    }
}
