package io.tokenpulse.producer.dataset;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Properties;
import org.duckdb.DuckDBDriver;

/**
 * Reads the rows of one {@code hf} dataset file as JSON objects: a JSON array of objects, JSONL
 * (one object per line, also under a {@code .json} name, as the hub often has it), or Parquet,
 * which DuckDB reads and turns into the same JSON ({@code to_json} of each row).
 */
final class HfRows {

    /** Receives each row with where it is, for messages: "line 3", "entry [2]", "row 7". */
    interface Consumer {
        void row(String where, JsonNode row);
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private HfRows() {}

    /** @throws IllegalArgumentException naming the file and the place when it is not readable as its kind */
    static void read(Path file, Consumer consumer) {
        if (file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".parquet")) {
            readParquet(file, consumer);
        } else {
            readJson(file, consumer);
        }
    }

    private static void readParquet(Path file, Consumer consumer) {
        // In memory, one connection per file: DuckDB reads the file, nothing is stored.
        try (Connection connection = new DuckDBDriver().connect("jdbc:duckdb:", new Properties());
                PreparedStatement rows = connection.prepareStatement("SELECT to_json(t) FROM read_parquet(?) t")) {
            rows.setString(1, file.toString());
            try (ResultSet result = rows.executeQuery()) {
                for (int row = 0; result.next(); row++) {
                    consumer.row("row " + row, JSON.readTree(result.getString(1)));
                }
            }
        } catch (SQLException e) {
            String message = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
            throw new IllegalArgumentException("--dataset-path " + file + " is not a readable Parquet file (" + message
                    + "); expected a dataset file as the Hugging Face hub stores it");
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("bug: DuckDB's to_json gave no JSON for " + file, e);
        }
    }

    private static void readJson(Path file, Consumer consumer) {
        try (PushbackInputStream in = new PushbackInputStream(Files.newInputStream(file))) {
            int first = firstNonBlank(in);
            if (first == '[') {
                readArray(in, consumer);
            } else {
                readLines(file, in, consumer);
            }
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("--dataset-path " + file + " is not valid JSON (line "
                    + e.getLocation().getLineNr() + ": " + DatasetFile.jsonProblem(e)
                    + "); expected a JSON array of objects or one JSON object per line");
        } catch (IOException e) {
            throw DatasetFile.unreadable(file, e);
        }
    }

    private static int firstNonBlank(PushbackInputStream in) throws IOException {
        int c = in.read();
        while (c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == 0xEF || c == 0xBB || c == 0xBF) {
            c = in.read(); // whitespace and a UTF-8 byte order mark
        }
        if (c >= 0) {
            in.unread(c);
        }
        return c;
    }

    private static void readArray(InputStream in, Consumer consumer) throws IOException {
        try (JsonParser parser = JSON.createParser(in)) {
            parser.nextToken();
            int index = 0;
            for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
                long line = parser.currentLocation().getLineNr();
                consumer.row("entry [" + index++ + "] (line " + line + ")", JSON.readTree(parser));
            }
        }
    }

    private static void readLines(Path file, InputStream in, Consumer consumer) throws IOException {
        BufferedReader reader = new BufferedReader(new java.io.InputStreamReader(in, StandardCharsets.UTF_8));
        int number = 0;
        for (String text = reader.readLine(); text != null; text = reader.readLine()) {
            number++;
            if (text.isBlank()) {
                continue;
            }
            try {
                consumer.row("line " + number, JSON.readTree(text));
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException("--dataset-path " + file + " is not valid JSONL: line " + number
                        + " is not JSON (" + DatasetFile.jsonProblem(e) + "); expected one JSON object per line");
            }
        }
    }
}
