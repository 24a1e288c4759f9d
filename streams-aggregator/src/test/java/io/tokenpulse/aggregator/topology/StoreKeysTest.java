package io.tokenpulse.aggregator.topology;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Store keys are what a restarted or upgraded aggregator finds its state by: the keys built with
 * {@link StoreKeys} are the ones {@code String.format} built before, byte for byte.
 */
class StoreKeysTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "zero                     | r1        | 0             | 10",
                "shorter than the digits  | r1        | 42            | 5",
                "as long as the digits    | r1        | 12345         | 5",
                "longer than the digits   | r1        | 1234567       | 5",
                "a window start in ms     | run-a/b   | 1700000000000 | 19",
                "negative: String.format  | r1        | -7            | 5",
            })
    void paddedIsWhatStringFormatWrites(String why, String prefix, long value, int digits) {
        assertThat(StoreKeys.padded(prefix, value, digits))
                .isEqualTo(String.format("%s/%0" + digits + "d", prefix, value));
    }

    @ParameterizedTest(name = "shard {1}, request {2}")
    @CsvSource({"r1, 0, 0", "r1, 3, 41", "run/with/slashes, 12345, 2147483647"})
    void theRunStagesKeysAreTheOnesItAlwaysWrote(String runId, int shard, int requestIndex) {
        String shardPrefix = String.format("%s/%05d/", runId, shard);

        assertThat(ShardAnchors.Records.shardKey(runId, shard) + "/started").isEqualTo(shardPrefix + "started");
        assertThat(ShardAnchors.Records.shardKey(runId, shard) + "/finished").isEqualTo(shardPrefix + "finished");
        assertThat(ShardAnchors.awaitingKey(runId, shard, requestIndex))
                .as("a request awaiting its shard's anchor")
                .isEqualTo(shardPrefix + String.format("%010d", requestIndex));
        assertThat(RunSummarizer.requestKey(runId, requestIndex))
                .as("a kept request")
                .isEqualTo(String.format("%s/%010d", runId, requestIndex));
        assertThat(ServerSection.awaitingStartKey(runId, requestIndex))
                .as("a scrape delta awaiting the run's start")
                .isEqualTo(String.format("%s/%019d", runId, (long) requestIndex));
    }
}
