package io.tokenpulse.aggregator.topology;

import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RunEvent;

/**
 * What the run stage's processors hand on, key run id, in one line: {@link ShardAnchors} →
 * {@link ServerSection} → {@link RunSummarizer}. Each takes what is its own and passes the rest on in
 * the order it came, so the summarizer sees a run's records in the order the stage took them in.
 */
sealed interface RunProgress
        permits RunProgress.ShardRecord, RunProgress.Anchored, RunProgress.ScheduleStarted, ServerSeries.Scraped {

    /** A shard's RunStarted or RunFinished, kept by {@link ShardAnchors} for the summary. */
    record ShardRecord(RunEvent event) implements RunProgress, ShardAnchors.Input {}

    /** A request's metrics with its shard's anchor added: its times are on the epoch clock. */
    record Anchored(RequestMetrics metrics) implements RunProgress {}

    /** Every shard of the run started: the run's schedule start, from which its scrapes count in its server section. */
    record ScheduleStarted(long epochNs) implements RunProgress {}
}
