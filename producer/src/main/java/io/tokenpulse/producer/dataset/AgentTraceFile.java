package io.tokenpulse.producer.dataset;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads an agent trace: Mooncake JSONL lines with AIPerf's {@code session_id} and {@code delay},
 * plus {@code request_id} and {@code parent_ids} for fan-out and join (docs/guide/datasets.md,
 * decision 0010). Checks the graph: every parent named is defined earlier in its session, no
 * cycle, no negative delay, no session left without a request to send.
 *
 * <p>Parents: {@code parent_ids} names earlier {@code request_id}s of the same session; without it a
 * line waits for the line before it in its session (AIPerf's sequential sessions), and the first
 * line of a session waits for nothing. {@code "parent_ids": []} makes a line a root. A root needs a
 * {@code timestamp}; a child's is only the recorded time and is not used.
 *
 * <p>Lines with {@code output_length} 0 are dropped as the {@code trace} dataset drops them, unless a
 * later line waits for their answer (then the file is refused: the child would have nothing to wait for).
 */
final class AgentTraceFile {

    static final String LAYOUT = "one JSON object per line like {\"session_id\": \"s1\", \"request_id\": \"r2\","
            + " \"parent_ids\": [\"r1\"], \"delay\": 250, \"input_length\": 600, \"output_length\": 20,"
            + " \"hash_ids\": [0, 1]} (a request without parents needs \"timestamp\" in ms)";

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One request of a session.
     *
     * @param line the file's line number, 1-based
     * @param parents positions in the session's request list, all smaller than this one's
     * @param timestampMs the recorded send time in ms; NaN when the line has none
     * @param delayMs the tool time after the last parent's end, ms (0 for a root)
     */
    record Request(
            int line,
            int[] parents,
            double timestampMs,
            double delayMs,
            int inputLength,
            int outputLength,
            long[] hashIds) {

        boolean root() {
            return parents.length == 0;
        }
    }

    /** One session, its requests in file order; {@code startMs} is its earliest root's timestamp. */
    record Session(String id, List<Request> requests, double startMs) {}

    /** A line as read, its parents still names. */
    private record Raw(
            int line,
            String session,
            String requestId,
            List<String> parentIds,
            double timestampMs,
            double delayMs,
            int inputLength,
            int outputLength,
            long[] hashIds) {}

    private final Path file;

    private AgentTraceFile(Path file) {
        this.file = file;
    }

    /**
     * The sessions of {@code file}, in order of their first line.
     *
     * @throws IllegalArgumentException with one line naming the file, the line and the rule broken
     */
    static List<Session> read(Path file) {
        return new AgentTraceFile(file).sessions();
    }

    private List<Session> sessions() {
        Map<String, List<Raw>> bySession = new LinkedHashMap<>();
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            int number = 0;
            for (String text = reader.readLine(); text != null; text = reader.readLine()) {
                number++;
                if (!text.isBlank()) {
                    Raw raw = raw(number, text);
                    bySession
                            .computeIfAbsent(raw.session(), s -> new ArrayList<>())
                            .add(raw);
                }
            }
        } catch (IOException e) {
            throw DatasetFile.unreadable(file, e);
        }
        if (bySession.isEmpty()) {
            throw refused("it has no lines; expected " + LAYOUT);
        }
        List<Session> sessions = new ArrayList<>();
        for (Map.Entry<String, List<Raw>> session : bySession.entrySet()) {
            sessions.add(session(session.getKey(), session.getValue()));
        }
        return sessions;
    }

    private Session session(String id, List<Raw> lines) {
        Map<String, Integer> positions = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            Raw raw = lines.get(i);
            if (raw.requestId() != null && positions.putIfAbsent(raw.requestId(), i) != null) {
                throw refused("line " + raw.line() + ": request_id \"" + raw.requestId() + "\" is already used by line "
                        + lines.get(positions.get(raw.requestId())).line() + " of session \"" + id
                        + "\"; request ids must be unique within a session");
            }
        }
        int[][] parents = new int[lines.size()][];
        for (int i = 0; i < lines.size(); i++) {
            parents[i] = parents(id, lines, positions, i);
        }
        // A line with nothing to send is dropped, unless a later line waits for its answer.
        boolean[] waitedFor = new boolean[lines.size()];
        int[] waiter = new int[lines.size()];
        for (int i = 0; i < lines.size(); i++) {
            for (int parent : parents[i]) {
                waitedFor[parent] = true;
                waiter[parent] = i;
            }
        }
        int[] kept = new int[lines.size()];
        List<Request> requests = new ArrayList<>();
        double startMs = Double.POSITIVE_INFINITY;
        for (int i = 0; i < lines.size(); i++) {
            Raw raw = lines.get(i);
            if (raw.outputLength() == 0) {
                if (waitedFor[i]) {
                    throw refused("line " + raw.line() + ": output_length is 0 but line "
                            + lines.get(waiter[i]).line() + " waits for its answer; a parent must ask for at least"
                            + " one token");
                }
                kept[i] = -1;
                continue;
            }
            kept[i] = requests.size();
            int[] mapped = new int[parents[i].length];
            for (int p = 0; p < mapped.length; p++) {
                mapped[p] = kept[parents[i][p]];
            }
            if (mapped.length == 0) {
                if (Double.isNaN(raw.timestampMs())) {
                    throw refused("line " + raw.line() + ": a request without parents needs \"timestamp\" (ms) to"
                            + " say when it is sent");
                }
                startMs = Math.min(startMs, raw.timestampMs());
            }
            requests.add(new Request(
                    raw.line(),
                    mapped,
                    raw.timestampMs(),
                    mapped.length == 0 ? 0 : raw.delayMs(),
                    raw.inputLength(),
                    raw.outputLength(),
                    raw.hashIds()));
        }
        if (requests.isEmpty()) {
            throw refused("line " + lines.get(0).line() + ": session \"" + id + "\" is empty: every one of its "
                    + lines.size() + " lines has output_length 0, so it has no request to send");
        }
        return new Session(id, requests, startMs);
    }

    /** Line {@code i}'s parents as positions in its session, each checked to come before it. */
    private int[] parents(String session, List<Raw> lines, Map<String, Integer> positions, int i) {
        Raw raw = lines.get(i);
        if (raw.parentIds() == null) {
            return i == 0 ? new int[0] : new int[] {i - 1};
        }
        Set<Integer> seen = new HashSet<>();
        int[] parents = new int[raw.parentIds().size()];
        for (int p = 0; p < parents.length; p++) {
            String parentId = raw.parentIds().get(p);
            Integer position = positions.get(parentId);
            if (position == null) {
                throw refused("line " + raw.line() + ": parent_ids names \"" + parentId
                        + "\", which no line of session \"" + session + "\" defines as its request_id");
            }
            if (position >= i) {
                List<String> cycle = cycle(lines, positions, i, position);
                if (cycle != null) {
                    throw refused("line " + raw.line() + ": parent_ids make a cycle in session \"" + session + "\" ("
                            + String.join(" -> ", cycle) + "); a request cannot wait for its own answer");
                }
                throw refused("line " + raw.line() + ": parent_ids names \"" + parentId + "\", which session \""
                        + session + "\" defines later (line "
                        + lines.get(position).line()
                        + "); a parent must come before its children");
            }
            if (!seen.add(position)) {
                throw refused("line " + raw.line() + ": parent_ids names \"" + parentId + "\" twice");
            }
            parents[p] = position;
        }
        return parents;
    }

    /**
     * The path {@code from -> parent -> ... -> from} by parent links when {@code parent} (a line at or
     * after {@code from}) leads back to {@code from}; null when it does not.
     */
    private static List<String> cycle(List<Raw> lines, Map<String, Integer> positions, int from, int parent) {
        List<String> path = new ArrayList<>();
        path.add(name(lines, from));
        return reaches(lines, positions, parent, from, path, new HashSet<>()) ? path : null;
    }

    private static boolean reaches(
            List<Raw> lines, Map<String, Integer> positions, int at, int target, List<String> path, Set<Integer> seen) {
        path.add(name(lines, at));
        if (at == target) {
            return true;
        }
        if (seen.add(at)) {
            Raw raw = lines.get(at);
            List<Integer> next = new ArrayList<>();
            if (raw.parentIds() == null) {
                if (at > 0) {
                    next.add(at - 1);
                }
            } else {
                for (String id : raw.parentIds()) {
                    Integer position = positions.get(id);
                    if (position != null) {
                        next.add(position);
                    }
                }
            }
            for (int position : next) {
                if (reaches(lines, positions, position, target, path, seen)) {
                    return true;
                }
            }
        }
        path.remove(path.size() - 1);
        return false;
    }

    private static String name(List<Raw> lines, int position) {
        Raw raw = lines.get(position);
        return raw.requestId() == null ? "line " + raw.line() : "\"" + raw.requestId() + "\"";
    }

    private Raw raw(int number, String text) {
        JsonNode node;
        try {
            node = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw refused("line " + number + " is not JSON (" + DatasetFile.jsonProblem(e) + "); expected " + LAYOUT);
        }
        if (!node.isObject()) {
            throw refused("line " + number + " is not a JSON object; expected " + LAYOUT);
        }
        String session = id(number, node, "session_id", true);
        String requestId = id(number, node, "request_id", false);
        List<String> parentIds = null;
        JsonNode parents = node.get("parent_ids");
        if (parents != null && !parents.isNull()) {
            if (!parents.isArray()) {
                throw refused("line " + number + ": \"parent_ids\" is " + parents + "; expected a list of request_ids");
            }
            parentIds = new ArrayList<>();
            for (JsonNode parent : parents) {
                if (!(parent.isTextual() || parent.isIntegralNumber())
                        || parent.asText().isEmpty()) {
                    throw refused("line " + number + ": parent_ids holds " + parent + "; expected request_ids");
                }
                parentIds.add(parent.asText());
            }
        }
        double timestampMs = Double.NaN;
        JsonNode timestamp = node.get("timestamp");
        if (timestamp != null && !timestamp.isNull()) {
            if (!timestamp.isNumber()
                    || !(timestamp.doubleValue() >= 0)
                    || Double.isInfinite(timestamp.doubleValue())) {
                throw refused("line " + number + ": \"timestamp\" is " + timestamp + "; expected ms >= 0");
            }
            timestampMs = timestamp.doubleValue();
        }
        double delayMs = 0;
        JsonNode delay = node.get("delay");
        if (delay != null && !delay.isNull()) {
            if (!delay.isNumber() || Double.isNaN(delay.doubleValue()) || Double.isInfinite(delay.doubleValue())) {
                throw refused("line " + number + ": \"delay\" is " + delay + "; expected the tool time in ms");
            }
            if (delay.doubleValue() < 0) {
                throw refused("line " + number + ": \"delay\" is " + delay + "; a tool time cannot be negative");
            }
            delayMs = delay.doubleValue();
        }
        int input = whole(number, node, "input_length", 1);
        int output = whole(number, node, "output_length", 0);
        return new Raw(
                number, session, requestId, parentIds, timestampMs, delayMs, input, output, hashIds(number, node));
    }

    private String id(int number, JsonNode node, String field, boolean required) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            if (required) {
                throw refused("line " + number + ": \"" + field + "\" is missing; expected " + LAYOUT);
            }
            return null;
        }
        if (!(value.isTextual() || value.isIntegralNumber()) || value.asText().isBlank()) {
            throw refused("line " + number + ": \"" + field + "\" is " + value + "; expected a non-empty string");
        }
        return value.asText();
    }

    private long[] hashIds(int number, JsonNode node) {
        JsonNode hashes = node.get("hash_ids");
        if (hashes == null || hashes.isNull()) {
            return new long[0];
        }
        if (!hashes.isArray()) {
            throw refused("line " + number + ": \"hash_ids\" is " + hashes + "; expected a list of integers");
        }
        long[] hashIds = new long[hashes.size()];
        for (int i = 0; i < hashIds.length; i++) {
            if (!hashes.get(i).isIntegralNumber()) {
                throw refused("line " + number + ": hash_ids[" + i + "] is " + hashes.get(i) + "; expected an integer");
            }
            hashIds[i] = hashes.get(i).longValue();
        }
        return hashIds;
    }

    private int whole(int number, JsonNode node, String field, int min) {
        JsonNode value = node.get(field);
        if (value == null || !value.canConvertToInt() || !value.isIntegralNumber() || value.intValue() < min) {
            throw refused("line " + number + ": \"" + field + "\" is " + (value == null ? "missing" : value)
                    + "; expected a whole number >= " + min);
        }
        return value.intValue();
    }

    private IllegalArgumentException refused(String problem) {
        return new IllegalArgumentException("--dataset-path " + file + " is not an agent trace: " + problem);
    }
}
