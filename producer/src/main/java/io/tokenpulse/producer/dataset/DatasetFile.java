package io.tokenpulse.producer.dataset;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Function;

/** The {@code --dataset-path} checks every file dataset shares, with the same one-line messages. */
final class DatasetFile {

    private DatasetFile() {}

    /**
     * @param example what a path for this dataset looks like, for the message
     * @throws IllegalArgumentException when {@code path} is null
     */
    static Path required(Path path, String datasetName, String example) {
        if (path == null) {
            throw new IllegalArgumentException("the " + datasetName + " dataset needs --dataset-path " + example);
        }
        return path;
    }

    /** A missing, unreadable or directory path, named with what went wrong. */
    static IllegalArgumentException unreadable(Path path, IOException e) {
        return new IllegalArgumentException(
                "--dataset-path " + path + " cannot be read (" + e.getClass().getSimpleName()
                        + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")",
                e);
    }

    /** Jackson's complaint on one short line, without the parser's source description. */
    static String jsonProblem(JsonProcessingException e) {
        String message = e.getOriginalMessage().lines().findFirst().orElse("");
        int marker = message.indexOf(" (start marker at");
        return marker < 0 ? message : message.substring(0, marker);
    }

    /**
     * Line {@code number} of a JSON-lines file, parsed; a line that is not JSON throws what {@code
     * notLayout} makes of the problem ("line N is not JSON (...)").
     */
    static JsonNode jsonLine(
            ObjectMapper json, String text, int number, Function<String, IllegalArgumentException> notLayout) {
        try {
            return json.readTree(text);
        } catch (JsonProcessingException e) {
            throw notLayout.apply("line " + number + " is not JSON (" + jsonProblem(e) + ")");
        }
    }
}
