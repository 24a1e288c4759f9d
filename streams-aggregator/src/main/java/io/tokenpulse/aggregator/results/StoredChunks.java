package io.tokenpulse.aggregator.results;

import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.avro.Chunk;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/** A stored run's chunk events, one per streamed event of each request, for {@code export}. */
public final class StoredChunks {

    private StoredChunks() {}

    /**
     * Reads the run's records of the chunks topic from the run's start on, up to the topic's end as
     * of now (read after {@link StoredRun}, which waited for the run to finish).
     *
     * @param clientProperties Kafka client properties incl. bootstrap.servers and security settings
     * @param wait             how long reading up to the topics' ends may take
     * @return the chunks by shard, request index and sequence number
     * @throws IllegalArgumentException when the runs topic has no record of {@code runId}; the message
     *     lists the newest runs it has
     */
    public static List<Chunk> read(Topics topics, Properties clientProperties, String runId, Duration wait) {
        try (TopicReader reader = new TopicReader(clientProperties)) {
            List<Chunk> chunks = new ArrayList<>();
            String prefix = Topics.requestKeyPrefix(runId);
            reader.decode(topics.chunks(), key -> key.startsWith(prefix), chunk -> {
                if (chunk.getRunId().equals(runId)) {
                    chunks.add(chunk);
                }
            });
            RunStart.readFrom(
                    reader, topics.runs(), runId, Map.of(topics.chunks().name(), Duration.ZERO), wait);
            chunks.sort(Comparator.comparingInt(Chunk::getShardIndex)
                    .thenComparingInt(Chunk::getRequestIndex)
                    .thenComparingInt(Chunk::getSeq));
            return chunks;
        }
    }
}
