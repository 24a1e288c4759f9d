package io.tokenpulse.producer.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.duckdb.DuckDBDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Parquet rows as JSON: parquet-java's reading of files DuckDB writes gives, row for row, the JSON
 * of DuckDB's own {@code to_json} (what the hf dataset read before), under each codec.
 */
class ParquetRowsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Every kind of column the hub's files have, and the rarer ones, with nulls at each depth. */
    private static final String ROWS = "SELECT * FROM (VALUES"
            + " (1::TINYINT, 2::SMALLINT, 3::INTEGER, 4000000000::BIGINT, 250::UTINYINT, 4000000000::UINTEGER,"
            + "  18000000000000000000::UBIGINT, 1.5::DOUBLE, 0.1::FLOAT, 12.50::DECIMAL(10,2),"
            + "  123456789012.3456::DECIMAL(20,4), 'héllo \"q\"', true, DATE '2024-01-15',"
            + "  TIMESTAMP '2024-01-15 10:00:00', TIMESTAMP '2024-01-15 10:00:00.25', TIME '08:30:00.5',"
            + "  {'bytes': from_hex('89504E470D0A1A0A5C27224100FF'), 'path': 'a.png'}, [1, 2, NULL],"
            + "  [{'from': 'human', 'value': 'Hi'}, {'from': 'gpt', 'value': NULL}], [[1], [], [2, 3]],"
            + "  MAP {'k': 1, 'l': 2}, '8d0e2bb6-7d8f-4f37-8d3c-3b3a3b3a3b3a'::UUID, {'a': NULL, 'b': [NULL]}),"
            + " (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,"
            + "  NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),"
            + " (-1, -2, -3, -4, 0, 0, 0, -0.25, 3.0, -0.01, 0, '', false, DATE '1969-12-31',"
            + "  TIMESTAMP '1969-12-31 23:59:59.999999', TIMESTAMP '2000-02-29 00:00:00', TIME '00:00:00',"
            + "  {'bytes': NULL, 'path': 'b.png'}, [], [], [], MAP {}, NULL, {'a': 7, 'b': []})"
            + ") t(i8, i16, i32, i64, u8, u32, u64, f64, f32, dec, dec_wide, text, flag, day, ts, ts_frac, tod,"
            + " image, ints, turns, nested, map, id, struct)";

    @TempDir
    Path dir;

    private Path parquet(String select, String options) throws Exception {
        Path file = dir.resolve("rows.parquet");
        Files.deleteIfExists(file);
        sql("COPY (" + select + ") TO '" + file + "' (FORMAT parquet" + options + ")");
        return file;
    }

    private static List<JsonNode> duckdbJson(Path file) throws Exception {
        List<JsonNode> rows = new ArrayList<>();
        try (Connection connection = new DuckDBDriver().connect("jdbc:duckdb:", new Properties());
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT to_json(t) FROM read_parquet('" + file + "') t")) {
            while (result.next()) {
                rows.add(JSON.readTree(result.getString(1)));
            }
        }
        return rows;
    }

    private static void sql(String statement) throws Exception {
        try (Connection connection = new DuckDBDriver().connect("jdbc:duckdb:", new Properties());
                Statement sql = connection.createStatement()) {
            sql.execute(statement);
        }
    }

    private static List<JsonNode> read(Path file, UnaryOperator<org.apache.parquet.schema.MessageType> projection)
            throws Exception {
        List<JsonNode> rows = new ArrayList<>();
        ParquetRows.read(file, projection, null, (position, row) -> {
            assertThat(position).isEqualTo(rows.size());
            rows.add(row);
        });
        return rows;
    }

    /** Numbers by value (DuckDB's 12.50 and our 12.5 are one number), everything else exactly. */
    private static final Comparator<JsonNode> BY_VALUE =
            (a, b) -> a.isNumber() && b.isNumber() ? a.decimalValue().compareTo(b.decimalValue()) : a.equals(b) ? 0 : 1;

    @ParameterizedTest
    @ValueSource(strings = {"snappy", "zstd", "gzip", "uncompressed", "lz4_raw"})
    void everyRowIsTheJsonDuckDbsToJsonGivesUnderEachCodec(String codec) throws Exception {
        Path file = parquet(ROWS, ", COMPRESSION " + codec);

        List<JsonNode> ours = read(file, UnaryOperator.identity());
        List<JsonNode> duckdb = duckdbJson(file);

        assertThat(ours).hasSameSizeAs(duckdb).hasSize(3);
        for (int i = 0; i < ours.size(); i++) {
            assertThat(ours.get(i).equals(BY_VALUE, duckdb.get(i)))
                    .as("row %d:%n ours   %s%n duckdb %s", i, ours.get(i), duckdb.get(i))
                    .isTrue();
        }
        assertThat(HfMedia.blob(ours.get(0).get("image").get("bytes").asText()))
                .isEqualTo(java.util.HexFormat.of().parseHex("89504E470D0A1A0A5C27224100FF"));
    }

    @Test
    void mediaColumnsAreReadOnlyForTheRowsAskedForAcrossRowGroups() throws Exception {
        Path file = parquet(
                "SELECT i AS id, CASE WHEN i % 3 = 0 THEN NULL ELSE {'bytes': from_hex('00' || printf('%02X', i % 256)),"
                        + " 'path': NULL} END AS image FROM range(5000) r(i)",
                ", ROW_GROUP_SIZE 1000");
        List<JsonNode> rows = new ArrayList<>();

        HfRows.read(file, (position, where, row) -> {
            assertThat(where).isEqualTo("row " + position);
            rows.add(row);
        });
        Map<Integer, JsonNode> images = HfRows.media(file, "image", Set.of(4, 3001, 4999, 4998));

        assertThat(rows).hasSize(5000);
        assertThat(rows.get(4).get("image").asBoolean()).isTrue();
        assertThat(rows.get(3).get("image").asBoolean()).isFalse();
        assertThat(rows.get(4999).get("id").asLong()).isEqualTo(4999);
        assertThat(images).containsOnlyKeys(4, 3001, 4999, 4998);
        assertThat(HfMedia.blob(images.get(4999).get("bytes").asText())).containsExactly(0, 4999 % 256);
        assertThat(images.get(3001).get("bytes").asText()).isEqualTo("\\x00\\xB9");
        assertThat(images.get(4998).isNull()).as("row 4998 has no image").isTrue();
        assertThat(images.get(4).get("path").isNull()).isTrue();
    }

    @Test
    void aFileThatIsNoParquetIsNamed() throws Exception {
        Path file = Files.writeString(dir.resolve("notes.parquet"), "not parquet at all");

        assertThatThrownBy(() -> HfRows.read(file, (position, where, row) -> {}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--dataset-path " + file + " is not a readable Parquet file (")
                .hasMessageEndingWith("); expected a dataset file as the Hugging Face hub stores it");
    }
}
