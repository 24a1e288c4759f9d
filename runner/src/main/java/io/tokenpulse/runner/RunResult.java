package io.tokenpulse.runner;

import io.tokenpulse.aggregator.report.ClientCpu;
import io.tokenpulse.producer.LoadResult;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RunSummary;
import java.util.List;
import java.util.Optional;

/**
 * What a run produced, for the command to print: the summary and request metrics as the aggregator
 * wrote them, the load generator's own counts, and this process's CPU.
 *
 * @param summary the run's summary, with its server section when it scraped --server-metrics/--scrape-url
 * @param requests the run's request metrics in request-index order, when the plan kept them (else empty)
 * @param noSummary why the aggregator's summary did not come, when {@code summary} was instead scored
 *     from what it stored (then marked incomplete); empty for a whole run
 */
public record RunResult(
        RunSummary summary,
        List<RequestMetrics> requests,
        LoadResult load,
        ClientCpu cpu,
        Optional<String> noSummary) {}
