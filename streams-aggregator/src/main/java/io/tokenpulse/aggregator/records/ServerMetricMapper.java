package io.tokenpulse.aggregator.records;

import io.tokenpulse.aggregator.metrics.ServerSample;
import io.tokenpulse.schemas.avro.ServerMetric;
import io.tokenpulse.schemas.avro.ServerMetricBucket;

/**
 * The one mapping between a {@link ServerMetric} record (topic {@code server-metrics}) and the metric
 * package's {@link ServerSample}, both ways (the topology keeps samples in a store as records). The
 * type field stays on the record: the common set knows each series' kind from its name. Pure.
 */
public final class ServerMetricMapper {

    private ServerMetricMapper() {}

    public static ServerSample sample(ServerMetric m) {
        return new ServerSample(
                m.getSource(),
                m.getScrapeEpochNs(),
                m.getName(),
                m.getLabels(),
                m.getValue(),
                m.getCount(),
                m.getBuckets().stream()
                        .map(b -> new ServerSample.Bucket(b.getLe(), b.getCount()))
                        .toList());
    }

    /** {@code sample} as a record of {@code runId}, of the type {@code like} had. */
    public static ServerMetric record(String runId, String type, ServerSample sample) {
        return ServerMetric.newBuilder()
                .setRunId(runId)
                .setScrapeEpochNs(sample.scrapeEpochNs())
                .setSource(sample.source())
                .setName(sample.name())
                .setType(type)
                .setLabels(sample.labels())
                .setValue(sample.value())
                .setCount(sample.count())
                .setBuckets(sample.buckets().stream()
                        .map(b -> new ServerMetricBucket(b.le(), b.count()))
                        .toList())
                .build();
    }
}
