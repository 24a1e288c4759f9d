package io.tokenpulse.cli;

import io.tokenpulse.aggregator.report.ConsoleReport;
import io.tokenpulse.aggregator.report.ResultFile;
import io.tokenpulse.aggregator.report.ResultJson;
import io.tokenpulse.aggregator.report.RunConfig;
import io.tokenpulse.aggregator.report.SummaryRecords;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RunSummary;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A run's report from its summary record: vLLM's {@code Serving Benchmark Result} block on the
 * console and, when asked, its result file. Shared by {@code bench} and {@code replay}.
 */
final class RunReport {

  /** --save-result and friends. */
  record ResultOptions(boolean save, boolean detailed, boolean append, Optional<Path> dir,
      Optional<String> filename, Map<String, String> metadata) {

    /** From the flags as given; a malformed --metadata pair fails with a one-line message. */
    static ResultOptions of(boolean save, boolean detailed, boolean append, String dir, String filename,
        List<String> metadata) {
      return new ResultOptions(save, detailed, append, Optional.ofNullable(dir).map(Path::of),
          Optional.ofNullable(filename), ResultJson.parseMetadata(metadata == null ? List.of() : metadata));
    }

    boolean anyFile() {
      return save || append || detailed;
    }
  }

  private RunReport() {}

  /**
   * Prints the block, the failures by reason and a warning about undelivered records, then saves the
   * result file when asked.
   *
   * @param requests the run's request metrics in request-index order; used only with --save-detailed
   */
  static void print(RunSummary summary, List<RequestMetrics> requests, ResultOptions options, PrintStream out)
      throws IOException {
    RunConfig config = SummaryRecords.config(summary);
    var result = SummaryRecords.result(summary);
    new ConsoleReport(false).print(config, result, out);
    if (!summary.getErrors().isEmpty()) {
      out.println("Failures by reason:");
      summary.getErrors().forEach((reason, count) -> out.println("  " + count + " x " + reason));
    }
    ResultJson.Delivery delivery = SummaryRecords.delivery(summary);
    if (delivery.recordsNotDelivered() > 0) {
      out.println("Warning: " + delivery.recordsNotDelivered() + " records were not delivered to Kafka"
          + (delivery.recordsNotDeliveredByReason().isEmpty() ? "" : " " + delivery.recordsNotDeliveredByReason())
          + "; the figures above miss them.");
    }
    if (options.anyFile()) {
      ResultJson json = ResultJson.of(config, result, options.metadata(), delivery);
      if (options.detailed()) {
        json = json.withDetails(requests.stream().map(SummaryRecords::detail).toList());
      }
      Path file = ResultFile.path(config, options.dir(), options.filename());
      ResultFile.write(file, json, options.append());
      out.println("Result saved to " + file);
    }
  }
}
