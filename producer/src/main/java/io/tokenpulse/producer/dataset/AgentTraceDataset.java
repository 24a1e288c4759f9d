package io.tokenpulse.producer.dataset;

import io.tokenpulse.tokenizers.Tokenizer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Agent-session replay ({@code --dataset-name agent-trace}): a JSONL file ({@code --dataset-path})
 * of Mooncake lines grouped into sessions, each request waiting for its parents' answers plus a
 * recorded tool time ({@link AgentTraceFile} reads and checks it; the format is in
 * docs/guide/datasets.md, why this one in decision 0010).
 *
 * <p>The draw takes whole sessions in order of their first root's {@code timestamp}, each in file
 * order, until {@code --num-prompts} requests (the last session may be cut: a prefix of a session in
 * file order holds every parent of its requests); a shorter trace is sent whole, never oversampled.
 * A root is due {@code (timestamp - first timestamp) * --trace-time-scale} ms after the start; a
 * child when the last of its parents ended plus {@code delay * --trace-time-scale} ms, which only
 * the run knows: its {@link SampledRequest#arrivalOffsetNs()} is the earliest it could be due (its
 * parents' offsets plus its tool time), used to size the connection pool.
 *
 * <p>Prompts come from {@code input_length} and {@code hash_ids} as in the {@code trace} dataset
 * ({@link HashBlockPrompts}). {@link #sample} returns {@link AgentTraceRequests}, which carries the graph.
 */
final class AgentTraceDataset extends NamedDataset {

    static final String NAME = "agent-trace";

    private static final Logger log = LoggerFactory.getLogger(AgentTraceDataset.class);

    private final Path file;
    private final HashBlockPrompts prompts;
    private final PromptStyle style;
    private final double timeScale;
    private final List<AgentTraceFile.Session> sessions;

    private AgentTraceDataset(
            Path file, Tokenizer tokenizer, DatasetOptions options, List<AgentTraceFile.Session> sessions) {
        super(NAME);
        this.file = file;
        this.prompts = new HashBlockPrompts(tokenizer);
        this.style = options.promptStyle();
        this.timeScale = options.trace().timeScale();
        this.sessions = sessions.stream()
                .sorted(Comparator.comparingDouble(AgentTraceFile.Session::startMs))
                .toList();
    }

    /**
     * Reads and checks the file now, so that a bad path, layout or graph fails before the run starts.
     *
     * @throws IllegalArgumentException with one line naming the file, the line and the rule broken
     */
    static AgentTraceDataset load(DatasetOptions options, Tokenizer tokenizer) {
        options.trace().checked();
        Path file = DatasetFile.required(options.datasetPath(), NAME, "/path/to/agent_trace.jsonl");
        return new AgentTraceDataset(file, tokenizer, options, AgentTraceFile.read(file));
    }

    @Override
    public List<SampledRequest> sample(int numRequests, long seed) {
        refuseNegative(numRequests);
        double firstMs = sessions.get(0).startMs();
        List<AgentTraceFile.Request> taken = new ArrayList<>();
        List<AgentStep> steps = new ArrayList<>();
        long[] offsetsNs = new long[Math.min(numRequests, totalRequests())];
        int sessionsTaken = 0;
        int joins = 0;
        int fanOuts = 0;
        for (AgentTraceFile.Session session : sessions) {
            if (taken.size() == offsetsNs.length) {
                break;
            }
            int base = taken.size();
            int[] children = new int[session.requests().size()];
            for (AgentTraceFile.Request request : session.requests()) {
                if (taken.size() == offsetsNs.length) {
                    break;
                }
                int index = taken.size();
                int[] parents = request.parents().clone();
                long toolTimeNs = Math.round(request.delayMs() * timeScale * 1e6);
                long offsetNs = request.root() ? Math.round((request.timestampMs() - firstMs) * timeScale * 1e6) : 0;
                for (int p = 0; p < parents.length; p++) {
                    children[parents[p]]++;
                    parents[p] += base;
                    offsetNs = Math.max(offsetNs, offsetsNs[parents[p]] + toolTimeNs);
                }
                joins += parents.length > 1 ? 1 : 0;
                offsetsNs[index] = offsetNs;
                taken.add(request);
                steps.add(new AgentStep(sessionsTaken, parents, toolTimeNs));
            }
            for (int count : children) {
                fanOuts += count > 1 ? 1 : 0;
            }
            sessionsTaken++;
        }
        List<TokenSequencePrompt> fitted = prompts.fit(
                taken.stream()
                        .map(request -> new HashBlockPrompts.Line(request.inputLength(), request.hashIds()))
                        .toList(),
                seed);
        List<SampledRequest> requests = new ArrayList<>(taken.size());
        for (int index = 0; index < taken.size(); index++) {
            TokenSequencePrompt prompt = fitted.get(index);
            requests.add(new SampledRequest(
                    Prompt.of(prompt.text(), style),
                    prompt.tokenCount(),
                    taken.get(index).outputLength(),
                    index,
                    OptionalLong.of(offsetsNs[index])));
        }
        log.info(String.format(
                Locale.ROOT,
                "%s: %s: %d sessions, %d requests; sampled %d requests of %d sessions, by session start, each in file"
                        + " order (%d fan-outs, %d joins); times scaled by %s (--trace-time-scale)%s",
                NAME,
                file,
                sessions.size(),
                totalRequests(),
                taken.size(),
                sessionsTaken,
                fanOuts,
                joins,
                timeScale,
                taken.size() < numRequests
                        ? "; only " + taken.size() + " of --num-prompts " + numRequests
                                + ": a trace is sent whole, not oversampled"
                        : ""));
        return new AgentTraceRequests(requests, steps);
    }

    private int totalRequests() {
        return sessions.stream().mapToInt(session -> session.requests().size()).sum();
    }
}
