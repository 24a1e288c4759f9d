package io.tokenpulse.aggregator.scoring;

import io.tokenpulse.aggregator.metrics.ServerAccumulator;
import io.tokenpulse.aggregator.metrics.ServerDeltas;
import io.tokenpulse.aggregator.metrics.ServerSample;
import io.tokenpulse.aggregator.records.ServerMetricMapper;
import io.tokenpulse.schemas.avro.MetricSummary;
import io.tokenpulse.schemas.avro.RunSummary;
import io.tokenpulse.schemas.avro.ServerMetric;
import io.tokenpulse.schemas.avro.ServerSummary;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;

/**
 * A run's server section ({@link RunSummary#getServer}) from its {@code server-metrics} records, the
 * same math the topology's windows use ({@link ServerDeltas}, {@link ServerAccumulator}): the
 * topology's summarizer adds each scrape's deltas as they come ({@link #add}, {@link #section(ServerAccumulator,
 * List)}), {@code replay} (and a bench run without a summary) scores the records stored on the topic
 * ({@link #section(List, List, long)}), so both give the same section; the report and the gauges
 * read it back with {@link #values}. Pure.
 */
public final class ServerScoring {

    private ServerScoring() {}

    /**
     * The section from the run's records in topic order; null without any series of the common set.
     *
     * @param clientMetrics the run summary's metrics ({@link RunSummary#getMetrics})
     * @param scheduleStartEpochNs the run's schedule start: scrapes from then on count, so the section
     *     covers the run's requests (from each series' last scrape before it), not the health check
     *     and the initial test request
     */
    public static ServerSummary section(
            List<ServerMetric> records, List<MetricSummary> clientMetrics, long scheduleStartEpochNs) {
        ServerDeltas deltas = ServerDeltas.inMemory();
        ServerAccumulator section = new ServerAccumulator();
        for (ServerMetric record : records) {
            deltas.next(ServerMetricMapper.sample(record))
                    .ifPresent(delta -> add(section, delta, scheduleStartEpochNs));
        }
        return section(section, clientMetrics);
    }

    /** Adds what one scraped series added ({@link ServerDeltas#next}) when it was scraped from the schedule start on. */
    public static void add(ServerAccumulator section, ServerSample delta, long scheduleStartEpochNs) {
        if (delta.scrapeEpochNs() >= scheduleStartEpochNs) {
            section.add(delta);
        }
    }

    /**
     * The section's keys (docs/server-metrics.md) as the summary's record, plus how far the client's
     * mean TTFT is from the server's ({@code server_ttft_gap_ms}) when the client's metrics have a TTFT
     * and the server a TTFT histogram; null when nothing known was scraped.
     */
    public static ServerSummary section(ServerAccumulator section, List<MetricSummary> clientMetrics) {
        Map<String, Double> values = section.values();
        if (values.isEmpty()) {
            return null;
        }
        Double serverTtftMs = values.get("server_mean_ttft_ms");
        clientMetrics.stream()
                .filter(m -> m.getMetric().equals("ttft") && m.getCount() > 0 && serverTtftMs != null)
                .map(MetricSummary::getMeanMs)
                .findFirst()
                // the network, the HTTP server and the client between the engine and the client's clock
                .ifPresent(clientMs -> values.put("server_ttft_gap_ms", clientMs - serverTtftMs));
        ServerSummary summary = new ServerSummary();
        // the section's keys are the record's field names
        values.forEach(summary::put);
        return summary;
    }

    /**
     * The section's {@code server_*} keys and values in the result file's order (the record's field
     * order), only those the scraped engines exposed; empty for a run without a section (null).
     */
    public static Map<String, Double> values(ServerSummary server) {
        Map<String, Double> values = new LinkedHashMap<>();
        if (server != null) {
            for (Schema.Field field : server.getSchema().getFields()) {
                if (server.get(field.pos()) instanceof Double value) {
                    values.put(field.name(), value);
                }
            }
        }
        return values;
    }
}
