package io.tokenpulse.producer;

import io.tokenpulse.producer.publish.PublishCounts;
import io.tokenpulse.producer.schedule.ArrivalSettings;
import io.tokenpulse.producer.schedule.RpsStep;
import io.tokenpulse.schemas.avro.RampUpConfig;
import io.tokenpulse.schemas.avro.RpsChange;
import io.tokenpulse.schemas.avro.RunEvent;
import io.tokenpulse.schemas.avro.RunFinished;
import io.tokenpulse.schemas.avro.RunStarted;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** A shard's RunStarted and RunFinished records, built from its settings, anchor and counts. */
final class RunRecords {

    private RunRecords() {}

    /**
     * RunStarted: the anchor, the target, what the report needs (RUN options as given), and the shard's
     * clock against the broker's when the start barrier measured it.
     *
     * @param rpsSteps the ramp-up's whole-rate steps over the run's schedule; empty without a ramp-up
     */
    static RunEvent started(
            LoadSettings settings,
            Anchor anchor,
            int plannedSize,
            List<RpsStep> rpsSteps,
            Optional<ClockOffset> clock) {
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
                        .setRampUp(rampUp(workload.arrivals().rampUp(), rpsSteps))
                        .setClockOffsetMs(clock.map(ClockOffset::offsetMs).orElse(null))
                        .setClockOffsetUncertaintyMs(
                                clock.map(ClockOffset::uncertaintyMs).orElse(null))
                        .build());
    }

    private static RampUpConfig rampUp(ArrivalSettings.RampUp rampUp, List<RpsStep> steps) {
        return rampUp == null
                ? null
                : RampUpConfig.newBuilder()
                        .setStrategy(rampUp.strategy().name().toLowerCase(Locale.ROOT))
                        .setStartRps(rampUp.startRps())
                        .setEndRps(rampUp.endRps())
                        .setRpsChanges(steps.stream()
                                .map(step -> new RpsChange(step.rps(), step.offsetNs()))
                                .toList())
                        .build();
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
