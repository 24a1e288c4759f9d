package io.tokenpulse.aggregator.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.streams.TopologyDescription;
import org.junit.jupiter.api.Test;

/**
 * What a deployed aggregator's state hangs on: a store's name names its changelog topic, a
 * repartition's name its topic, and a store's sub-topology the task (and state directory) that
 * holds it. Renaming any of them drops or orphans state an upgrade in the middle of a run needs;
 * processor names may change freely.
 */
class TopologyNamesTest {
    private final TopologyDescription description = AggregatorTopology.build(
                    TopologyFixture.plainTopics(), StreamsSettings.defaults("unused:9092"))
            .describe();

    @Test
    void everyStoreKeepsItsNameAndItsSubTopology() {
        Map<String, Integer> subTopologyOfStore = new TreeMap<>();
        for (TopologyDescription.Subtopology sub : description.subtopologies()) {
            for (TopologyDescription.Node node : sub.nodes()) {
                if (node instanceof TopologyDescription.Processor processor) {
                    processor.stores().forEach(store -> subTopologyOfStore.put(store, sub.id()));
                }
            }
        }

        assertThat(subTopologyOfStore)
                .isEqualTo(new TreeMap<>(Map.ofEntries(
                        Map.entry("request-finished", 0),
                        Map.entry("request-join-progress", 0),
                        Map.entry("request-chunk-offset-blocks", 0),
                        Map.entry("run-events", 3),
                        Map.entry("run-requests-awaiting-anchor", 3),
                        Map.entry("run-requests", 3),
                        Map.entry("run-request-counts", 3),
                        Map.entry("completed-runs", 3),
                        Map.entry("run-server-records", 3),
                        Map.entry("run-server-starts", 3),
                        Map.entry("run-server-sections", 3),
                        Map.entry("run-server-awaiting-start", 3),
                        Map.entry("server-series-last", 3),
                        Map.entry("server-first-scrapes", 3),
                        Map.entry("server-series-done", 3),
                        Map.entry("run-window-states", 3),
                        Map.entry("run-window-pending", 3))));
    }

    @Test
    void theTopologyReadsAndWritesTheSameTopics() {
        Set<String> read = new TreeSet<>();
        Set<String> written = new TreeSet<>();
        for (TopologyDescription.Subtopology sub : description.subtopologies()) {
            for (TopologyDescription.Node node : sub.nodes()) {
                if (node instanceof TopologyDescription.Source source) {
                    read.addAll(source.topicSet());
                } else if (node instanceof TopologyDescription.Sink sink) {
                    written.add(sink.topic());
                }
            }
        }

        assertThat(read)
                .containsExactlyInAnyOrder(
                        "runs",
                        "requests",
                        "chunks",
                        "chunk-batches",
                        "server-metrics",
                        "requests-by-run-repartition",
                        "runs-by-run-repartition",
                        "server-metrics-by-run-repartition");
        assertThat(written)
                .containsExactlyInAnyOrder(
                        "request-metrics",
                        "window-metrics",
                        "run-summaries",
                        "dead-letter",
                        "requests-by-run-repartition",
                        "runs-by-run-repartition",
                        "server-metrics-by-run-repartition");
    }
}
