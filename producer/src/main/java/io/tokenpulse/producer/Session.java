package io.tokenpulse.producer;

import io.tokenpulse.producer.backend.RequestOutcome;
import io.tokenpulse.producer.dataset.ChatPromptLength;
import io.tokenpulse.producer.dataset.Conversation;
import io.tokenpulse.producer.dataset.Prompt;
import io.tokenpulse.producer.dataset.SampledRequest;
import io.tokenpulse.producer.http.StreamRequest;
import io.tokenpulse.producer.session.HistorySource;
import io.tokenpulse.producer.session.SessionOptions;
import io.tokenpulse.tokenizers.ChatMessage;
import io.tokenpulse.tokenizers.Tokenizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One multi-turn session being played: turn {@code k+1} is sent only after turn {@code k}'s answer
 * ended, plus a think time, and carries the conversation so far (the server's answers or the
 * dataset's). The session arrives on the schedule like a single request and holds its
 * {@code --max-concurrency} slot from its first turn's send until its last turn ends, think times
 * included: the limit caps open sessions (concurrent users, whose histories the KV cache holds), see
 * docs/guide/datasets.md.
 *
 * <p>Turn {@code t} is request {@code first + t} (a session's turns take consecutive indices), its
 * scheduled time the previous answer's end plus the think time, so its queue delay is how late the
 * client sent it. A failed turn ends the session (what follows would extend an answer that never came);
 * so does a stop of the run.
 *
 * <p>Threading: turns are strictly sequential, so the state is touched by one thread at a time: the
 * scheduler for the first send, an I/O thread when a turn ends, {@link SessionParts#turns()} to build
 * and send the next. The hand-offs go through executors, which publish the writes.
 */
final class Session implements RequestStream.EndListener {

    private static final Logger LOG = LoggerFactory.getLogger(Session.class);

    private final SessionParts parts;
    private final PlannedRequest opening;
    private final Conversation conversation;
    private final String sessionId;
    private final SplittableRandom thinking;
    private final List<String> answers = new ArrayList<>();
    private int turn;
    private boolean closed;

    Session(SessionParts parts, PlannedRequest opening) {
        this.parts = parts;
        this.opening = opening;
        this.conversation = opening.sample().conversation();
        int sessionIndex = opening.sample().index();
        this.sessionId = SessionOptions.sessionId(parts.settings().runId(), sessionIndex);
        // one stream per session: its think times do not depend on how the other sessions went
        this.thinking =
                new SplittableRandom(parts.settings().workload().arrivals().seed() * 31 + sessionIndex);
    }

    /** The session's id, sent in {@link SessionOptions#headerName()} and kept in each turn's records. */
    String id() {
        return sessionId;
    }

    /** The first turn's request, built before its send time. */
    StreamRequest firstTurn() {
        return request(0, opening.sample());
    }

    /**
     * Sends the first turn now, on the scheduler; the session counts as in flight until it ended.
     *
     * @param http {@link #firstTurn()}
     * @param permitNs when its slot was granted, or {@link Dispatcher#NO_LIMIT}
     */
    void open(StreamRequest http, long permitNs, long launchedNs) {
        parts.run().tally().sessionStarted();
        send(http, planned(0, opening.offsetNs(), opening.sample()), permitNs, launchedNs);
    }

    @Override
    public void ended(RequestOutcome outcome, long endNs) {
        int next = turn + 1;
        if (!outcome.success()
                || next >= conversation.turns().size()
                || parts.stopped().get()) {
            close();
            return;
        }
        answers.add(
                parts.options().history() == HistorySource.SERVER
                        ? outcome.generatedText()
                        : conversation.turns().get(turn).recordedAnswer());
        long dueNs = endNs + parts.options().thinkTime().sampleNs(thinking);
        turn = next;
        parts.turns().execute(() -> prepare(next, dueNs));
    }

    /** Builds turn {@code t} (tokenizing the history takes time) and sends it at {@code dueNs}. */
    private void prepare(int t, long dueNs) {
        try {
            SampledRequest sample = turnSample(
                    parts.run().tokenizer(),
                    conversation,
                    t,
                    answers,
                    opening.sample().index());
            PlannedRequest planned = planned(t, parts.run().anchor().offsetNs(dueNs), sample);
            StreamRequest http = request(t, sample);
            parts.turns().schedule(() -> launch(http, planned, dueNs), dueNs - System.nanoTime(), TimeUnit.NANOSECONDS);
        } catch (RuntimeException e) {
            LOG.warn("session {}: building turn {} failed, ending the session: {}", sessionId, t, e.toString());
            close();
        }
    }

    /**
     * Turn {@code t} of {@code conversation} after {@code answers}: the conversation so far, its length
     * counted as vLLM's server counts it (the chat template over every message, with the generation
     * prompt), the same for the three message backends, which vLLM serves through that template.
     */
    static SampledRequest turnSample(
            Tokenizer tokenizer, Conversation conversation, int t, List<String> answers, int sessionIndex) {
        List<ChatMessage> messages = conversation.messages(t, answers);
        return new SampledRequest(
                new Prompt.Chat(messages),
                ChatPromptLength.of(tokenizer, messages),
                conversation.turns().get(t).outputLen(),
                sessionIndex);
    }

    private void launch(StreamRequest http, PlannedRequest planned, long dueNs) {
        if (parts.stopped().get()) {
            close();
            return;
        }
        long launchedNs = System.nanoTime();
        parts.health().requestSent(dueNs, launchedNs);
        // the session holds its slot: a later turn's permit is its send
        send(http, planned, Dispatcher.NO_LIMIT, launchedNs);
    }

    private void send(StreamRequest http, PlannedRequest planned, long permitNs, long launchedNs) {
        parts.run().tally().requestStarted();
        String requestId = parts.settings().requestId(planned.index());
        parts.client()
                .send(
                        http,
                        new RequestStream(
                                parts.run(),
                                parts.backend().newResponse(),
                                planned,
                                requestId,
                                permitNs,
                                launchedNs,
                                this,
                                false));
    }

    private PlannedRequest planned(int t, long offsetNs, SampledRequest sample) {
        return new PlannedRequest(opening.index() + t, offsetNs, sample, new PlannedRequest.SessionTurn(sessionId, t));
    }

    private StreamRequest request(int t, SampledRequest sample) {
        int index = opening.index() + t;
        StreamRequest http = StreamRequests.of(
                parts.backend(),
                parts.backendSettings(),
                parts.settings().requestId(index),
                sample,
                parts.sendModel() == null ? null : parts.sendModel().apply(index));
        String header = parts.options().headerName();
        if (header == null) {
            return http;
        }
        Map<String, String> headers = new HashMap<>(http.headers());
        headers.put(header, sessionId);
        return new StreamRequest(http.uri(), headers, http.body());
    }

    /** Gives back the slot and tells the tally the session is over; once. */
    private void close() {
        if (closed) {
            return;
        }
        closed = true;
        parts.releasePermit().run();
        parts.run().tally().sessionEnded();
    }
}
