package io.tokenpulse.producer.dataset;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.apache.parquet.schema.MessageType;

/**
 * Reads the rows of one {@code hf} dataset file as JSON objects: a JSON array of objects, JSONL
 * (one object per line, also under a {@code .json} name, as the hub often has it), or Parquet,
 * whose rows {@link ParquetRows} turns into the same JSON (DuckDB's {@code to_json} of each row).
 *
 * <p>Media are read in two steps, so that a file of many images or clips is never held in memory:
 * {@link #read} gives every row with its {@link HfLayout#MEDIA_COLUMNS} as booleans (whether the row
 * has one; Parquet's blobs are not even read), and {@link #media} reads one column of the sampled
 * rows only, by their position in the file.
 */
final class HfRows {

    /** Receives each row with its position ({@link #media} finds it again) and where it is, for messages. */
    interface Consumer {
        /**
         * @param position Parquet's row number, a JSON array's entry index or a JSONL file's line number
         * @param where "row 7", "entry [2] (line 5)", "line 3"
         */
        void row(int position, String where, JsonNode row);
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private HfRows() {}

    /**
     * Reads every row, its media columns replaced by whether the row has a value there.
     *
     * @throws IllegalArgumentException naming the file and the place when it is not readable as its kind
     */
    static void read(Path file, Consumer consumer) {
        if (isParquet(file)) {
            readParquet(file, consumer);
        } else {
            readJson(file, null, (position, where, row) -> consumer.row(position, where, withoutMedia(row)));
        }
    }

    /**
     * The values of {@code column} (one of {@link HfLayout#MEDIA_COLUMNS}) in the rows at
     * {@code positions}, as stored (null when a row has none); one pass over the file.
     *
     * @throws IllegalArgumentException naming the file when it is no longer readable as its kind
     */
    static Map<Integer, JsonNode> media(Path file, String column, Set<Integer> positions) {
        Map<Integer, JsonNode> values = new HashMap<>();
        if (isParquet(file)) {
            parquet(
                    file,
                    schema -> new MessageType(schema.getName(), schema.getType(column)),
                    positions,
                    (position, row) -> values.put(position, row.get(column)));
        } else {
            readJson(file, positions, (position, where, row) -> values.put(position, row.get(column)));
        }
        return values;
    }

    private static boolean isParquet(Path file) {
        return file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".parquet");
    }

    /** The row with each media column it has set to whether it holds a value (not JSON null). */
    private static JsonNode withoutMedia(JsonNode row) {
        if (row instanceof ObjectNode object) {
            for (String column : HfLayout.MEDIA_COLUMNS) {
                JsonNode value = object.get(column);
                if (value != null) {
                    object.put(column, !value.isNull());
                }
            }
        }
        return row;
    }

    private static void readParquet(Path file, Consumer consumer) {
        parquet(
                file,
                schema -> new MessageType(
                        schema.getName(),
                        schema.getFields().stream()
                                .map(field -> HfLayout.MEDIA_COLUMNS.contains(field.getName())
                                        ? ParquetRows.presenceOnly(field)
                                        : field)
                                .toList()),
                null,
                (position, row) -> consumer.row(position, "row " + position, withoutMedia(row)));
    }

    /** Reads the file's rows with parquet-java, naming the file when it is no Parquet file it reads. */
    private static void parquet(
            Path file, UnaryOperator<MessageType> projection, Set<Integer> positions, ParquetRows.Consumer consumer) {
        try {
            ParquetRows.read(file, projection, positions, consumer);
        } catch (IOException e) {
            String message = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
            throw new IllegalArgumentException("--dataset-path " + file + " is not a readable Parquet file (" + message
                    + "); expected a dataset file as the Hugging Face hub stores it");
        }
    }

    /** Reads the rows at {@code positions}, or all rows when null; the others are skipped unparsed. */
    private static void readJson(Path file, Set<Integer> positions, Consumer consumer) {
        try (PushbackInputStream in = new PushbackInputStream(Files.newInputStream(file))) {
            int first = firstNonBlank(in);
            if (first == '[') {
                readArray(in, positions, consumer);
            } else {
                readLines(file, in, positions, consumer);
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

    private static void readArray(InputStream in, Set<Integer> positions, Consumer consumer) throws IOException {
        try (JsonParser parser = JSON.createParser(in)) {
            parser.nextToken();
            int index = 0;
            for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
                if (positions == null || positions.contains(index)) {
                    long line = parser.currentLocation().getLineNr();
                    consumer.row(index, "entry [" + index + "] (line " + line + ")", JSON.readTree(parser));
                } else {
                    parser.skipChildren();
                }
                index++;
            }
        }
    }

    private static void readLines(Path file, InputStream in, Set<Integer> positions, Consumer consumer)
            throws IOException {
        BufferedReader reader = new BufferedReader(new java.io.InputStreamReader(in, StandardCharsets.UTF_8));
        int number = 0;
        for (String text = reader.readLine(); text != null; text = reader.readLine()) {
            number++;
            if (text.isBlank() || (positions != null && !positions.contains(number))) {
                continue;
            }
            try {
                consumer.row(number, "line " + number, JSON.readTree(text));
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException("--dataset-path " + file + " is not valid JSONL: line " + number
                        + " is not JSON (" + DatasetFile.jsonProblem(e) + "); expected one JSON object per line");
            }
        }
    }
}
