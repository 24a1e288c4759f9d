package io.tokenpulse.aggregator.scoring;

import io.tokenpulse.aggregator.metrics.ServerAccumulator;
import io.tokenpulse.aggregator.metrics.ServerDeltas;
import io.tokenpulse.aggregator.records.ServerMetricMapper;
import io.tokenpulse.schemas.avro.MetricSummary;
import io.tokenpulse.schemas.avro.RunSummary;
import io.tokenpulse.schemas.avro.ServerMetric;
import java.util.List;
import java.util.Map;

/**
 * A run's server section from its {@code server-metrics} records, the same math the topology's
 * windows use ({@link ServerDeltas}, {@link ServerAccumulator}): {@code bench} and {@code replay} both
 * score it from the records stored on the topic, so they print and save the same keys. Pure.
 */
public final class ServerScoring {

    private ServerScoring() {}

    /**
     * The section's keys (docs/server-metrics.md) from the run's records in topic order, plus how far
     * the client's mean TTFT is from the server's ({@code server_ttft_gap_ms}) when the
     * client's metrics have a TTFT and the server a TTFT histogram; empty without records.
     *
     * @param clientMetrics the run summary's metrics ({@link RunSummary#getMetrics})
     * @param scheduleStartEpochNs the run's schedule start: scrapes from then on count, so the section
     *     covers the run's requests (from each series' last scrape before it), not the health check
     *     and the initial test request
     */
    public static Map<String, Double> section(
            List<ServerMetric> records, List<MetricSummary> clientMetrics, long scheduleStartEpochNs) {
        ServerDeltas deltas = ServerDeltas.inMemory();
        ServerAccumulator section = new ServerAccumulator();
        for (ServerMetric record : records) {
            deltas.next(ServerMetricMapper.sample(record))
                    .filter(sample -> sample.scrapeEpochNs() >= scheduleStartEpochNs)
                    .ifPresent(section::add);
        }
        Map<String, Double> values = section.values();
        Double serverTtftMs = values.get("server_mean_ttft_ms");
        clientMetrics.stream()
                .filter(m -> m.getMetric().equals("ttft") && m.getCount() > 0 && serverTtftMs != null)
                .map(MetricSummary::getMeanMs)
                .findFirst()
                // the network, the HTTP server and the client between the engine and the client's clock
                .ifPresent(clientMs -> values.put("server_ttft_gap_ms", clientMs - serverTtftMs));
        return values;
    }
}
