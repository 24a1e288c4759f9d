package io.tokenpulse.producer;

import io.tokenpulse.producer.publish.PublishCounts;
import io.tokenpulse.schemas.avro.RunEvent;
import io.tokenpulse.schemas.avro.RunFinished;
import io.tokenpulse.schemas.avro.RunStarted;
import java.util.Optional;

/** A shard's RunStarted and RunFinished records, built from its settings, anchor and counts. */
final class RunRecords {

    private RunRecords() {}

    /**
     * RunStarted: the anchor, the target, what the report needs (RUN options as given), and the shard's
     * clock against the broker's when the start barrier measured it.
     */
    static RunEvent started(LoadSettings settings, Anchor anchor, int plannedSize, Optional<ClockOffset> clock) {
        LoadSettings.Target target = settings.target();
        LoadSettings.Workload workload = settings.workload();
        LoadSettings.Reporting reporting = settings.reporting();
        return event(
                settings,
                RunStarted.newBuilder()
                        .setScheduleStartEpochNs(anchor.startEpochNs())
                        .setBackend(target.backend())
                        .setModelId(target.model())
                        .setTokenizerId(workload.tokenizerId())
                        .setEndpointUrl(target.endpointUrl().toString())
                        .setNumPrompts(plannedSize < 0 ? null : plannedSize)
                        .setRequestRate(workload.arrivals().requestRate())
                        .setBurstiness(workload.arrivals().burstiness())
                        .setMaxConcurrency(workload.maxConcurrency())
                        .setPercentileMetrics(reporting.percentileMetrics())
                        .setMetricPercentiles(reporting.metricPercentiles())
                        .setGoodput(reporting.goodput())
                        .setConfigJson(reporting.configJson())
                        .setSelectedMetrics(reporting.selectedMetrics())
                        .setSelectedPercentiles(reporting.selectedPercentiles())
                        .setGoodputSloMs(reporting.goodputSloMs())
                        .setTokenpulseVersion(version())
                        .setLoraModules(
                                settings.workload().lora() == null
                                        ? java.util.List.of()
                                        : settings.workload().lora().modules())
                        .setClockOffsetMs(clock.map(ClockOffset::offsetMs).orElse(null))
                        .setClockOffsetUncertaintyMs(
                                clock.map(ClockOffset::uncertaintyMs).orElse(null))
                        .build());
    }

    /**
     * RunFinished: the shard's counts, and the records it could not deliver before this one.
     *
     * @param lastNs monotonic time the shard's last request finished
     * @param interrupted the shard was stopped before its schedule ended
     * @param serverMetricRecords the server-metrics records the run's scrapes published, null without scraping
     */
    static RunEvent finished(
            LoadSettings settings,
            Anchor anchor,
            long lastNs,
            RunTally.Counts counts,
            PublishCounts delivery,
            boolean interrupted,
            Long serverMetricRecords) {
        return event(
                settings,
                RunFinished.newBuilder()
                        .setFinishedEpochNs(anchor.epochNs(lastNs))
                        .setRequestsStarted(counts.started())
                        .setRequestsSucceeded(counts.succeeded())
                        .setRequestsFailed(counts.failed())
                        .setChunkEvents(counts.chunkEvents())
                        .setRecordsNotDelivered(delivery.notDelivered())
                        .setRecordsNotDeliveredByReason(delivery.notDeliveredByReason())
                        .setInterrupted(interrupted)
                        .setServerMetricRecords(serverMetricRecords)
                        .build());
    }

    private static RunEvent event(LoadSettings settings, Object startedOrFinished) {
        return RunEvent.newBuilder()
                .setRunId(settings.runId())
                .setShardIndex(settings.shardIndex())
                .setShardCount(settings.shardCount())
                .setEvent(startedOrFinished)
                .build();
    }

    private static String version() {
        String version = RunRecords.class.getPackage().getImplementationVersion();
        return version == null ? "development build" : version;
    }
}
