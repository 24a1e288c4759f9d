package io.tokenpulse.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.avro.RunSummary;
import io.tokenpulse.schemas.registry.InMemorySchemaRegistry;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TopicsTest {
    private final InMemorySchemaRegistry registry = new InMemorySchemaRegistry();

    @Test
    void defaultPrefixNamesEveryTopicOnceInPipelineOrder() {
        Topics topics = Topics.create(registry, true);

        assertThat(topics.all())
                .extracting(TopicSpec::name)
                .containsExactly(
                        "tokenpulse.runs",
                        "tokenpulse.requests",
                        "tokenpulse.chunks",
                        "tokenpulse.chunk-batches",
                        "tokenpulse.request-metrics",
                        "tokenpulse.window-metrics",
                        "tokenpulse.run-summaries",
                        "tokenpulse.dead-letter",
                        "tokenpulse.server-metrics");
    }

    @Test
    void theTopicsARequestsRecordsMeetOnAreCoPartitioned() {
        assertThat(Topics.create(registry, true).coPartitioned())
                .extracting(TopicSpec::name)
                .containsExactly("tokenpulse.requests", "tokenpulse.chunks", "tokenpulse.chunk-batches");
    }

    @Test
    void avroTopicsUseTheValueSubjectAndDeadLetterHasNone() {
        Topics topics = Topics.create("bench7.", registry, true);

        assertThat(topics.chunks().subject()).contains("bench7.chunks-value");
        assertThat(topics.runSummaries().subject()).contains("bench7.run-summaries-value");
        assertThat(topics.deadLetter().subject()).isEmpty();
    }

    @Test
    void topicsCarryingGeneratedTextAcceptRecordsUpToTheBoundAndOthersKeepTheBrokersDefault() {
        Topics topics = Topics.create(registry, true);
        Map<String, String> sixteenMib = Map.of("max.message.bytes", Integer.toString(16 * 1024 * 1024));

        assertThat(topics.requests().config()).isEqualTo(sixteenMib);
        assertThat(topics.requestMetrics().config()).isEqualTo(sixteenMib);
        assertThat(List.of(
                        topics.runs(),
                        topics.chunks(),
                        topics.chunkBatches(),
                        topics.windowMetrics(),
                        topics.runSummaries(),
                        topics.deadLetter(),
                        topics.serverMetrics()))
                .allSatisfy(topic -> assertThat(topic.config()).isEmpty());
        assertThat(Topics.MAX_GENERATED_TEXT_BYTES).isLessThan(Topics.MAX_RECORD_BYTES);
    }

    @Test
    void valueSerdeRegistersUnderTheTopicsSubjectWhenAutoRegistering() {
        Topics topics = Topics.create("t.", registry, true);
        Chunk chunk = Chunk.newBuilder()
                .setRunId("r")
                .setShardIndex(0)
                .setRequestIndex(1)
                .setSeq(0)
                .setOffsetNs(1)
                .setGapNs(0)
                .setArrivedEpochNs(2)
                .setBytes(3)
                .build();

        byte[] bytes = topics.chunks()
                .valueSerde()
                .serializer()
                .serialize(topics.chunks().name(), chunk);

        assertThat(topics.chunks().valueSerde().deserializer().deserialize("t.chunks", bytes))
                .isEqualTo(chunk);
        assertThat(registry.latest("t.chunks-value"))
                .hasValueSatisfying(r -> assertThat(r.schema()).isEqualTo(Chunk.getClassSchema()));
    }

    @Test
    void withoutAutoRegisterNothingIsRegistered() {
        Topics topics = Topics.create(registry, false);
        RunSummary summary = new RunSummary();

        assertThatThrownBy(() -> topics.runSummaries()
                        .valueSerde()
                        .serializer()
                        .serialize(topics.runSummaries().name(), summary))
                .hasMessageContaining("not registered under subject tokenpulse.run-summaries-value");
        assertThat(registry.latest("tokenpulse.run-summaries-value")).isEqualTo(Optional.empty());
    }

    @Test
    void resolvingSchemaIdsUpFrontRegistersEveryAvroValueSchemaOnce() {
        Topics topics = Topics.create(registry, true);

        Map<String, Integer> ids = topics.resolveSchemaIds();

        assertThat(ids.keySet())
                .containsExactly(
                        "tokenpulse.runs-value",
                        "tokenpulse.requests-value",
                        "tokenpulse.chunks-value",
                        "tokenpulse.chunk-batches-value",
                        "tokenpulse.request-metrics-value",
                        "tokenpulse.window-metrics-value",
                        "tokenpulse.run-summaries-value",
                        "tokenpulse.server-metrics-value");
        assertThat(ids.values()).doesNotHaveDuplicates();
        int calls = registry.calls();
        assertThat(topics.resolveSchemaIds()).isEqualTo(ids);
        assertThat(registry.calls()).as("ids are cached by the serializers").isEqualTo(calls);
    }

    @Test
    void resolvingSchemaIdsFailsOnTheFirstMissingSchemaWithoutAutoRegister() {
        Topics topics = Topics.create(registry, false);

        assertThatThrownBy(topics::resolveSchemaIds)
                .hasMessage("the schema of io.tokenpulse.schemas.avro.RunEvent is not registered under"
                        + " subject tokenpulse.runs-value; register it first or turn on auto-registration");
    }

    @Test
    void keysAreStrings() {
        Topics topics = Topics.create(registry, true);

        byte[] key = topics.requests().keySerde().serializer().serialize("x", "run-1/7");

        assertThat(new String(key, java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("run-1/7");
    }

    @Test
    void prefixWithCharactersKafkaRejectsFailsWithTheAllowedSet() {
        assertThatThrownBy(() -> Topics.create("my bench/", registry, true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("topic prefix 'my bench/' may only contain letters, digits, '.', '_' and '-'");
        assertThatThrownBy(() -> Topics.create("p".repeat(240), registry, true))
                .hasMessageContaining("use at most 234");
    }
}
