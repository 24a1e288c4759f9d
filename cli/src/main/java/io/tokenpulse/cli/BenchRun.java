package io.tokenpulse.cli;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tokenpulse.aggregator.exposition.AggregatorMeters;
import io.tokenpulse.aggregator.exposition.MetricsEndpoint;
import io.tokenpulse.aggregator.metrics.GoodputSlo;
import io.tokenpulse.aggregator.results.RunResults;
import io.tokenpulse.aggregator.topology.Aggregator;
import io.tokenpulse.aggregator.topology.StreamsSettings;
import io.tokenpulse.charts.RunChart;
import io.tokenpulse.producer.LoadGenerator;
import io.tokenpulse.producer.LoadResult;
import io.tokenpulse.producer.LoadSettings;
import io.tokenpulse.producer.backend.Profiler;
import io.tokenpulse.producer.publish.EventPublisher;
import io.tokenpulse.producer.publish.PublisherSettings;
import io.tokenpulse.schemas.avro.RunSummary;
import io.tokenpulse.tokenizers.Tokenizer;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * One {@code tokenpulse bench} run, start to end: pipeline (embedded or given), aggregator
 * in-process on the embedded platform, load, then the report read back from the run-summary topic.
 * It lives in {@code cli} because it is the one place that may join the load generator and the
 * aggregator: those two modules only meet through Kafka.
 */
final class BenchRun {

  /**
   * What the run does beyond the load itself.
   *
   * @param load the load generator's settings (the target is already final, e.g. the simulator's URL)
   * @param goodput parsed --goodput SLOs (already validated)
   * @param report whether and where to save the result file
   * @param summaryTimeout how long to wait for the summary after the last response
   * @param metrics where /metrics serves the aggregator's and the load generator's meters
   * @param windows the in-process aggregator's window size and grace
   * @param chart where --save-chart writes the run's PNG chart, or null
   * @param profile --profile: POST /start_profile before the load and /stop_profile after the report
   */
  record Plan(LoadSettings load, GoodputSlo goodput, RunReport.ResultOptions report, Duration summaryTimeout,
      MetricsOptions metrics, WindowOptions windows, Path chart, boolean profile) {}

  /** How long the chart waits for window updates committed after the summary (one commit interval, in practice). */
  private static final Duration CHART_WAIT = Duration.ofSeconds(10);

  /** Prometheus' default scrape interval: the longest a run waits for its final scrape. */
  private static final Duration FINAL_SCRAPE_MAX = Duration.ofMinutes(1);

  private BenchRun() {}

  static int run(Plan plan, Pipeline pipeline, Tokenizer tokenizer, PrintStream out)
      throws IOException, InterruptedException {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    Aggregator aggregator = null;
    AggregatorMeters meters = null;
    // One endpoint serves the aggregator's and the load generator's meters.
    MetricsEndpoint endpoint = plan.metrics().startOrNull(registry);
    try {
      if (pipeline.embedded()) {
        // One command, one process: the aggregator runs beside the load generator.
        meters = AggregatorMeters.register(registry, AggregatorMeters.DEFAULT_FINISHED_RUN_RETENTION);
        aggregator = Aggregator.start(pipeline.topics(),
            plan.windows().applyTo(StreamsSettings.defaults(pipeline.bootstrapServers())
                .withStateDir(pipeline.dataDir().resolve("streams"))),
            pipeline.clientProperties(), meters);
        meters.bindStreams(aggregator.kafkaStreams(), pipeline.topics());
      }
      Instant since = Instant.now().minusSeconds(60);
      try (RunResults results = RunResults.open(pipeline.topics(), pipeline.clientProperties(),
              plan.load().runId(), since, plan.report().detailed());
           EventPublisher publisher = EventPublisher.open(publisherSettings(pipeline), pipeline.topics())) {
        Profiler profiler = plan.profile()
            ? new Profiler(plan.load().target().baseUrl(), plan.load().target().apiKey(), out) : null;
        if (profiler != null) {
          profiler.start();
        }
        try {
          LoadResult load = LoadGenerator.run(plan.load(), publisher, tokenizer, out, registry);
          Optional<RunSummary> summary = results.awaitSummary(plan.summaryTimeout());
          if (summary.isEmpty()) {
            throw UserError.failure(noSummary(plan, pipeline, load));
          }
          RunReport.print(summary.get(), results.requests(), plan.report(), out);
          if (plan.chart() != null) {
            ChartFile.save(pipeline, plan.load().runId(), plan.chart(), RunChart.DEFAULT_SIZE, CHART_WAIT, out);
          }
          if (endpoint != null) {
            // The summary gauges were registered just now: let a scraper see them before the endpoint closes.
            endpoint.awaitNextScrape(FINAL_SCRAPE_MAX);
          }
          return 0;
        } finally {
          if (profiler != null) {
            profiler.stop(); // after the report, as vLLM stops it after printing
          }
        }
      }
    } finally {
      if (aggregator != null) {
        aggregator.close();
      }
      if (meters != null) {
        meters.close();
      }
      if (endpoint != null) {
        endpoint.close();
      }
    }
  }

  /** Why there is no summary, as precisely as the load generator knows it. */
  private static String noSummary(Plan plan, Pipeline pipeline, LoadResult load) {
    String undelivered = load.recordsNotDelivered() + " records not delivered to Kafka"
        + (load.notDeliveredByReason().isEmpty() ? "" : " " + load.notDeliveredByReason());
    String cause;
    if (!load.lostRunRecords().isEmpty()) {
      cause = "the run's " + String.join(" and ", load.lostRunRecords()) + " did not reach Kafka, so no aggregator"
          + " can complete it";
    } else if (pipeline.embedded()) {
      cause = "the in-process aggregator fell behind or failed";
    } else {
      cause = "is 'tokenpulse aggregate' running against " + pipeline.bootstrapServers() + "?";
    }
    return "no run summary for run " + plan.load().runId() + " within " + plan.summaryTimeout().toSeconds()
        + " s after the last response (" + load.started() + " requests sent, " + undelivered + "); " + cause;
  }

  /** The publisher's settings with the user's --kafka-property values; a setting that cannot work is a usage error. */
  private static PublisherSettings publisherSettings(Pipeline pipeline) {
    try {
      return PublisherSettings.of(pipeline.bootstrapServers()).withOverrides(stringMap(pipeline));
    } catch (IllegalArgumentException e) {
      throw UserError.usage(e.getMessage());
    }
  }

  private static Map<String, String> stringMap(Pipeline pipeline) {
    return pipeline.clientProperties().entrySet().stream()
        .filter(e -> !e.getKey().equals("bootstrap.servers"))
        .collect(Collectors.toMap(e -> String.valueOf(e.getKey()), e -> String.valueOf(e.getValue())));
  }
}
