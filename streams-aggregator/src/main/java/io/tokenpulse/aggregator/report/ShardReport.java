package io.tokenpulse.aggregator.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A run of several shards as the report shows it (TokenPulse's own, after vLLM's block): how many
 * shards took part, which never finished, and each one's clock against the broker's. In the result
 * file the keys {@code shards}, {@code shard_count}, {@code missing_shards} (left out when empty) and
 * {@code shard_clock_offsets}; a run of one shard has none of them ({@link #ONE}), so its file and
 * block stay vLLM's.
 *
 * @param shards            the shards that reported (sent their RunStarted)
 * @param shardCount        the {@code --shard-count} they were started with
 * @param missingShards     the shards whose RunStarted or RunFinished never came, ascending
 * @param shardClockOffsets each shard's clock against the broker's, in shard order, for those that measured it
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ShardReport(
        @JsonInclude(JsonInclude.Include.NON_NULL) Integer shards,
        @JsonInclude(JsonInclude.Include.NON_NULL) Integer shardCount,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Integer> missingShards,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Clock> shardClockOffsets) {

    /** A run of one shard: no keys, no lines. */
    public static final ShardReport ONE = new ShardReport(null, null, List.of(), List.of());

    /**
     * One shard's clock minus the broker's, ms, measured at its start-barrier announcement
     * (docs/cluster.md), and how far the true offset may be from it.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Clock(int shard, double offsetMs, double uncertaintyMs) {}

    public ShardReport {
        missingShards = missingShards == null ? List.of() : List.copyOf(missingShards);
        shardClockOffsets = shardClockOffsets == null ? List.of() : List.copyOf(shardClockOffsets);
    }

    /** The report of a run that had {@code shardCount} shards; {@link #ONE} for one. */
    public static ShardReport of(int shards, int shardCount, List<Integer> missingShards, List<Clock> clocks) {
        return shardCount < 2 ? ONE : new ShardReport(shards, shardCount, missingShards, clocks);
    }

    /**
     * The lines after the block: the shards that took part, the missing ones named; each shard's clock
     * offset; nothing for one shard.
     */
    public String lines() {
        if (shardCount == null) {
            return "";
        }
        StringBuilder text = new StringBuilder("Shards: " + shards + " of " + shardCount + " reported");
        if (!missingShards.isEmpty()) {
            text.append(", ")
                    .append(shardCount - missingShards.size())
                    .append(" finished; missing: ")
                    .append(missingShards.size() == 1 ? "shard " : "shards ")
                    .append(missingShards.stream().map(String::valueOf).collect(Collectors.joining(", ")))
                    .append(" (no RunStarted or RunFinished: killed mid-run, or cut off from Kafka)");
        }
        text.append('\n');
        if (!shardClockOffsets.isEmpty()) {
            text.append("Shard clocks minus the broker's: ")
                    .append(shardClockOffsets.stream()
                            .map(c -> String.format(
                                    Locale.ROOT,
                                    "shard %d %+.1f ms (± %.1f)",
                                    c.shard(),
                                    c.offsetMs(),
                                    c.uncertaintyMs()))
                            .collect(Collectors.joining(", ")))
                    .append('\n');
        }
        return text.toString();
    }
}
