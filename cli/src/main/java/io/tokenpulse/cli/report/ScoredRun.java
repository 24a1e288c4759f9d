package io.tokenpulse.cli.report;

import io.tokenpulse.aggregator.report.BenchResult;
import io.tokenpulse.aggregator.report.ResultReader;
import io.tokenpulse.aggregator.report.SummaryRecords;
import io.tokenpulse.aggregator.results.StoredRun;
import io.tokenpulse.aggregator.scoring.RunScoring;
import io.tokenpulse.aggregator.scoring.RunShards;
import io.tokenpulse.aggregator.scoring.ServerScoring;
import io.tokenpulse.runner.Pipeline;
import io.tokenpulse.runner.UserError;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RunSummary;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * A stored run scored again from its records in Kafka ({@link StoredRun}, {@link RunScoring}): what
 * {@code replay}, {@code compare --run-id} and {@code report --run-id} read.
 *
 * @param summary  the run's summary, with the server section scored from its stored scrapes (null without)
 * @param requests the run's request metrics in request-index order
 */
public record ScoredRun(RunSummary summary, List<RequestMetrics> requests) {

    /**
     * Reads and scores the run.
     *
     * @param options the scoring options from the run's stored ones (replay's overrides)
     * @throws UserError (failure) for an unknown run, or an incomplete one without {@code allowIncomplete}
     */
    public static ScoredRun read(
            Pipeline pipeline,
            String runId,
            Duration wait,
            boolean allowIncomplete,
            UnaryOperator<RunScoring.Options> options) {
        StoredRun run = stored(pipeline, runId, wait, allowIncomplete);
        Optional<String> missing = run.missing();
        RunShards shards = run.storedShards()
                .orElseThrow(() ->
                        UserError.failure("run " + runId + " has no RunStarted record stored: nothing to score it by"));
        RunScoring.Options scoring = options.apply(RunScoring.Options.storedIn(runId, shards.config()));
        RunSummary summary = missing.isPresent()
                ? RunScoring.summarizeIncomplete(runId, shards, run.requests(), scoring, missing.get())
                : RunScoring.summarize(runId, shards, run.requests()::stream, scoring);
        summary.setServer(
                ServerScoring.section(run.serverMetrics(), summary.getMetrics(), shards.scheduleStartEpochNs()));
        return new ScoredRun(summary, run.requests());
    }

    /**
     * Reads the run as stored (what {@code export} writes out as it is).
     *
     * @throws UserError (failure) for an unknown run, or an incomplete one without {@code allowIncomplete}
     */
    public static StoredRun stored(Pipeline pipeline, String runId, Duration wait, boolean allowIncomplete) {
        StoredRun run;
        try {
            run = StoredRun.read(pipeline.topics(), pipeline.clientProperties(), runId, wait);
        } catch (IllegalArgumentException e) {
            throw UserError.failure(e.getMessage());
        }
        Optional<String> missing = run.missing();
        if (missing.isPresent() && !allowIncomplete) {
            throw UserError.failure("run " + runId + " is not complete after waiting " + wait.toSeconds()
                    + " s: missing " + missing.get() + "; did the run and its aggregator finish?"
                    + " (--allow-incomplete reads what is stored)");
        }
        return run;
    }

    /** The run's result with the per-request lists (what --save-detailed writes). */
    public BenchResult result() {
        return ResultReader.of(SummaryRecords.resultJson(summary, requests, Map.of(), null, true));
    }
}
