package io.tokenpulse.cli.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import io.tokenpulse.schemas.avro.ServerMetric;
import io.tokenpulse.schemas.avro.ServerMetricBucket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.duckdb.DuckDBDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** export's files: Parquet that DuckDB reads back column for column, CSV with a header and JSON for nested values. */
class ExportFormatTest {

    @TempDir
    Path dir;

    private static final List<ServerMetric> SCRAPES = List.of(
            ServerMetric.newBuilder()
                    .setRunId("r1")
                    .setScrapeEpochNs(1_000)
                    .setSource("http://127.0.0.1:8000/metrics")
                    .setName("vllm:time_to_first_token_seconds")
                    .setType("histogram")
                    .setLabels(Map.of("model_name", "opt"))
                    .setValue(1.5)
                    .setCount(3.0)
                    .setBuckets(List.of(
                            new ServerMetricBucket(0.5, 2.0), new ServerMetricBucket(Double.POSITIVE_INFINITY, 3.0)))
                    .build(),
            ServerMetric.newBuilder()
                    .setRunId("r1")
                    .setScrapeEpochNs(2_000)
                    .setSource("http://127.0.0.1:8000/metrics")
                    .setName("vllm:num_requests_running")
                    .setType("gauge")
                    .setLabels(Map.of())
                    .setValue(4)
                    .setCount(null)
                    .setBuckets(List.of())
                    .build());

    @Test
    void parquetHoldsEveryFieldWithNullsListsMapsAndStructsAsDuckDbReadsThem() throws Exception {
        Path file = ExportFormat.PARQUET.write(dir, "server-metrics", ServerMetric.getClassSchema(), SCRAPES);

        assertThat(file).hasFileName("server-metrics.parquet");
        try (Connection duckdb = new DuckDBDriver().connect("jdbc:duckdb:", new Properties());
                Statement sql = duckdb.createStatement();
                ResultSet rows = sql.executeQuery("SELECT name, labels['model_name'], value, count, len(buckets),"
                        + " buckets[1].le, buckets[2].count FROM '" + file + "' ORDER BY scrape_epoch_ns")) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getString(1)).isEqualTo("vllm:time_to_first_token_seconds");
            assertThat(rows.getString(2)).isEqualTo("opt");
            assertThat(rows.getDouble(3)).isEqualTo(1.5);
            assertThat(rows.getDouble(4)).isEqualTo(3.0);
            assertThat(rows.getInt(5)).isEqualTo(2);
            assertThat(rows.getDouble(6)).isEqualTo(0.5);
            assertThat(rows.getDouble(7)).isEqualTo(3.0);
            assertThat(rows.next()).isTrue();
            assertThat(rows.getObject(4)).as("a gauge's count").isNull();
            assertThat(rows.getInt(5)).isZero();
            assertThat(rows.next()).isFalse();
        }
    }

    @Test
    void aNullableListIsAListOrNullInParquet() throws Exception {
        // request metrics' empty_text_events: a list, or null in a run stored before it was recorded
        Schema schema = SchemaBuilder.record("R")
                .fields()
                .requiredInt("i")
                .name("empty_text_events")
                .type()
                .optional()
                .array()
                .items()
                .intType()
                .endRecord();
        GenericData.Record listed = new GenericData.Record(schema);
        listed.put("i", 0);
        listed.put("empty_text_events", List.of(0, 1));
        GenericData.Record older = new GenericData.Record(schema);
        older.put("i", 1);
        Path file = ExportFormat.PARQUET.write(dir, "request-metrics", schema, List.of(listed, older));

        try (Connection duckdb = new DuckDBDriver().connect("jdbc:duckdb:", new Properties());
                Statement sql = duckdb.createStatement();
                ResultSet rows = sql.executeQuery(
                        "SELECT len(empty_text_events), empty_text_events[2] FROM '" + file + "' ORDER BY i")) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getInt(1)).isEqualTo(2);
            assertThat(rows.getInt(2)).isEqualTo(1);
            assertThat(rows.next()).isTrue();
            assertThat(rows.getObject(1)).isNull();
        }
    }

    @Test
    void csvHasAHeaderOfTheFieldsAndNestedValuesAsJson() throws Exception {
        Path file = ExportFormat.CSV.write(dir, "server-metrics", ServerMetric.getClassSchema(), SCRAPES);

        List<String[]> rows;
        try (var reader = new CsvMapper()
                .readerForArrayOf(String.class)
                .with(CsvParser.Feature.WRAP_AS_ARRAY)
                .<String[]>readValues(file.toFile())) {
            rows = reader.readAll();
        }

        assertThat(rows).hasSize(3);
        assertThat(rows.get(0))
                .containsExactly(
                        "run_id", "scrape_epoch_ns", "source", "name", "type", "labels", "value", "count", "buckets");
        assertThat(rows.get(1))
                .containsExactly(
                        "r1",
                        "1000",
                        "http://127.0.0.1:8000/metrics",
                        "vllm:time_to_first_token_seconds",
                        "histogram",
                        "{\"model_name\": \"opt\"}",
                        "1.5",
                        "3.0",
                        "[{\"le\": 0.5, \"count\": 2.0}, {\"le\": \"Infinity\", \"count\": 3.0}]");
        assertThat(rows.get(2))
                .containsExactly(
                        "r1",
                        "2000",
                        "http://127.0.0.1:8000/metrics",
                        "vllm:num_requests_running",
                        "gauge",
                        "{}",
                        "4.0",
                        "",
                        "[]");
    }

    @Test
    void aFormatOtherThanParquetOrCsvIsNamed() {
        assertThat(ExportFormat.parse("CSV")).isEqualTo(ExportFormat.CSV);
        assertThatThrownBy(() -> ExportFormat.parse("json")).hasMessage("--format must be parquet or csv, got 'json'");
    }
}
