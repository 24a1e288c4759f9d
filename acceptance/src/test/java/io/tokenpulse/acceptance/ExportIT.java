package io.tokenpulse.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.duckdb.DuckDBDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code export} of a stored run: {@code bench} against {@code simulate} on the embedded platform
 * ({@code --data-dir}, which the later commands start again), then the run as Parquet and as CSV.
 * The Parquet files are read back with DuckDB (a reader independent of the parquet-java that wrote
 * them): a row per request and per chunk event (as many as the requests' ITL lists imply), and the
 * windows count every request. An unknown run is one line.
 */
class ExportIT {
    private static final String RUN_ID = "acceptance-export";
    private static final int PROMPTS = 12;
    private static final int OUTPUT_LEN = 8;

    @TempDir
    Path home;

    @TempDir
    Path logs;

    @TempDir
    Path work;

    @Test
    void aStoredRunIsWrittenAsParquetAndCsvFilesWithARowPerRequestAndPerChunk() throws Exception {
        Tokenpulse tokenpulse = new Tokenpulse(home, logs);
        String dataDir = work.resolve("data").toString();
        try (LocalSimulator simulator = LocalSimulator.start(tokenpulse, "--profile", "deterministic")) {
            Tokenpulse.Result bench = tokenpulse.run(
                    Tokenpulse.ROOT,
                    Duration.ofMinutes(4),
                    simulator.bench(
                            "--model",
                            "facebook/opt-125m",
                            "--dataset-name",
                            "random",
                            "--random-input-len",
                            "32",
                            "--random-output-len",
                            Integer.toString(OUTPUT_LEN),
                            "--ignore-eos",
                            "--num-prompts",
                            Integer.toString(PROMPTS),
                            "--metrics-port",
                            "0",
                            "--disable-tqdm",
                            "--data-dir",
                            dataDir,
                            "--run-id",
                            RUN_ID));
            assertThat(bench.exitCode()).as(bench.toString()).isZero();
        }

        Path parquet = work.resolve("parquet");
        Tokenpulse.Result export = export(tokenpulse, dataDir, RUN_ID, "parquet", parquet);
        assertThat(export.exitCode()).as(export.toString()).isZero();
        assertThat(export.stdout())
                .contains("Exported run " + RUN_ID + ": " + PROMPTS + " request metrics, ")
                .contains("chunks.parquet, request-metrics.parquet, window-metrics.parquet, server-metrics.parquet");
        try (Connection duckdb = new DuckDBDriver().connect("jdbc:duckdb:", new Properties());
                Statement sql = duckdb.createStatement()) {
            assertThat(longOf(sql, "SELECT count(*) FROM '" + parquet.resolve("request-metrics.parquet") + "'"))
                    .isEqualTo(PROMPTS);
            long chunks = longOf(sql, "SELECT count(*) FROM '" + parquet.resolve("chunks.parquet") + "'");
            // vLLM's ITL list has one gap per chunk after the first: the chunks of the run, counted twice.
            assertThat(chunks)
                    .isEqualTo(longOf(
                            sql,
                            "SELECT sum(len(itl_ns) + 1) FROM '" + parquet.resolve("request-metrics.parquet") + "'"))
                    .isGreaterThanOrEqualTo(PROMPTS);
            assertThat(longOf(
                            sql,
                            "SELECT count(DISTINCT request_index) FROM '" + parquet.resolve("chunks.parquet")
                                    + "' WHERE run_id = '" + RUN_ID + "'"))
                    .isEqualTo(PROMPTS);
            assertThat(longOf(sql, "SELECT sum(completed) FROM '" + parquet.resolve("window-metrics.parquet") + "'"))
                    .isEqualTo(PROMPTS);
            assertThat(longOf(sql, "SELECT count(*) FROM '" + parquet.resolve("server-metrics.parquet") + "'"))
                    .isZero();

            Path csv = work.resolve("csv");
            Tokenpulse.Result csvExport = export(tokenpulse, dataDir, RUN_ID, "csv", csv);
            assertThat(csvExport.exitCode()).as(csvExport.toString()).isZero();
            assertThat(Files.readAllLines(csv.resolve("request-metrics.csv")))
                    .hasSize(PROMPTS + 1)
                    .first()
                    .asString()
                    .startsWith("run_id,shard_index,request_index,request_id,success,");
            assertThat(Files.readAllLines(csv.resolve("chunks.csv"))).hasSize((int) chunks + 1);
        }

        Tokenpulse.Result unknown = export(tokenpulse, dataDir, "no-such-run", "csv", work.resolve("none"));
        assertThat(unknown.exitCode()).as(unknown.toString()).isNotZero();
        assertThat(unknown.stderr().strip())
                .contains("no run no-such-run in topic tokenpulse.runs")
                .doesNotContain("\n");
        assertThat(work.resolve("none")).doesNotExist();
    }

    private static Tokenpulse.Result export(
            Tokenpulse tokenpulse, String dataDir, String runId, String format, Path output) {
        return tokenpulse.run(
                Tokenpulse.ROOT,
                Duration.ofMinutes(2),
                List.of(
                        "export",
                        "--run-id",
                        runId,
                        "--data-dir",
                        dataDir,
                        "--format",
                        format,
                        "--output",
                        output.toString()));
    }

    private static long longOf(Statement sql, String query) throws Exception {
        try (ResultSet result = sql.executeQuery(query)) {
            assertThat(result.next()).isTrue();
            return result.getLong(1);
        }
    }
}
