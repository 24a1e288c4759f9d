package io.tokenpulse.simulator.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * The answer bodies of the pooling endpoints, in the shapes vLLM's OpenAI-compatible server writes
 * (its pooling API docs): embeddings {@code {"id","object":"list","created","model","data":[{"index",
 * "object":"embedding","embedding":[...]}],"usage":{"prompt_tokens","total_tokens"}}}; rerank
 * {@code {"id","model","usage":{"total_tokens"},"results":[{"index","document":{"text"},
 * "relevance_score"}]}} by falling relevance, {@code top_n} of them; score {@code {"id","object":"list",
 * "created","model","data":[{"index","object":"score","score"}],"usage":{"prompt_tokens","total_tokens"}}}.
 * The vectors and scores are made up but stable: derived from the texts, so the same request gets the
 * same answer. Stateless.
 */
public final class PoolingFormat {

    /** Floats in each simulated embedding: enough for a real body's shape, small enough to cost nothing. */
    public static final int EMBEDDING_DIMENSIONS = 16;

    private PoolingFormat() {}

    /** Writes the answer to {@code request} into {@code out}. */
    public static void answer(ByteBuf out, PoolingRequest request, String requestId, String model, long createdS) {
        String id = request.endpoint().idPrefix + requestId;
        ChunkFormat.generate(out, g -> {
            g.writeStartObject();
            g.writeStringField("id", id);
            switch (request.endpoint()) {
                case EMBEDDINGS -> {
                    listHead(g, createdS, model);
                    for (int i = 0; i < request.inputs().size(); i++) {
                        g.writeStartObject();
                        g.writeNumberField("index", i);
                        g.writeStringField("object", "embedding");
                        g.writeArrayFieldStart("embedding");
                        long seed = request.inputs().get(i).hashCode();
                        for (int d = 0; d < EMBEDDING_DIMENSIONS; d++) {
                            g.writeNumber((float) unit(seed * 31 + d) * 2 - 1);
                        }
                        g.writeEndArray();
                        g.writeEndObject();
                    }
                    g.writeEndArray();
                    usage(g, request.promptTokens(), true);
                }
                case RERANK -> {
                    g.writeStringField("model", model);
                    usage(g, request.promptTokens(), false);
                    g.writeArrayFieldStart("results");
                    int[] byRelevance = IntStream.range(0, request.inputs().size())
                            .boxed()
                            .sorted(Comparator.comparingDouble((Integer i) -> score(request, i))
                                    .reversed())
                            .mapToInt(Integer::intValue)
                            .limit(request.topN())
                            .toArray();
                    for (int i : byRelevance) {
                        g.writeStartObject();
                        g.writeNumberField("index", i);
                        g.writeObjectFieldStart("document");
                        g.writeStringField("text", request.inputs().get(i));
                        g.writeEndObject();
                        g.writeNumberField("relevance_score", score(request, i));
                        g.writeEndObject();
                    }
                    g.writeEndArray();
                }
                case SCORE -> {
                    listHead(g, createdS, model);
                    for (int i = 0; i < request.inputs().size(); i++) {
                        g.writeStartObject();
                        g.writeNumberField("index", i);
                        g.writeStringField("object", "score");
                        g.writeNumberField("score", score(request, i));
                        g.writeEndObject();
                    }
                    g.writeEndArray();
                    usage(g, request.promptTokens(), true);
                }
            }
            g.writeEndObject();
        });
    }

    /** {@code "object":"list","created","model","data":[} */
    private static void listHead(JsonGenerator g, long createdS, String model) throws IOException {
        g.writeStringField("object", "list");
        g.writeNumberField("created", createdS);
        g.writeStringField("model", model);
        g.writeArrayFieldStart("data");
    }

    /** vLLM's rerank usage has {@code total_tokens} only; embeddings and score add {@code prompt_tokens}. */
    private static void usage(JsonGenerator g, int promptTokens, boolean withPromptTokens) throws IOException {
        g.writeObjectFieldStart("usage");
        if (withPromptTokens) {
            g.writeNumberField("prompt_tokens", promptTokens);
        }
        g.writeNumberField("total_tokens", promptTokens);
        g.writeEndObject();
    }

    /** A relevance in [0, 1) from the pair's texts. */
    private static double score(PoolingRequest request, int i) {
        return unit(31L * request.query().get(i).hashCode()
                + request.inputs().get(i).hashCode());
    }

    /** A stable number in [0, 1) from {@code seed} (SplitMix64's finalizer). */
    private static double unit(long seed) {
        long z = seed + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z = z ^ (z >>> 31);
        return (z >>> 11) * 0x1.0p-53;
    }
}
