package io.tokenpulse.aggregator.results;

import io.tokenpulse.schemas.ChunkBatches;
import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.avro.Chunk;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * A stored run's chunk events, one per streamed event of each request, for {@code export}: the
 * records of the chunks topic and the events of the chunk-batches topic's records (a run may have
 * either, or both).
 */
public final class StoredChunks {

    private StoredChunks() {}

    /**
     * Reads the run's records of the chunks and chunk-batches topics from the run's start on, up to
     * the topics' ends as of now (read after {@link StoredRun}, which waited for the run to finish),
     * each batch expanded into its chunks (one that cannot be, like any unreadable record, is skipped).
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
            reader.decode(topics.chunkBatches(), key -> key.startsWith(prefix), batch -> {
                if (batch.getRunId().equals(runId)) {
                    chunks.addAll(ChunkBatches.expand(batch));
                }
            });
            RunStart.readFrom(
                    reader,
                    topics.runs(),
                    runId,
                    Map.of(
                            topics.chunks().name(),
                            Duration.ZERO,
                            topics.chunkBatches().name(),
                            Duration.ZERO),
                    wait);
            chunks.sort(Comparator.comparingInt(Chunk::getShardIndex)
                    .thenComparingInt(Chunk::getRequestIndex)
                    .thenComparingInt(Chunk::getSeq));
            return chunks;
        }
    }
}
