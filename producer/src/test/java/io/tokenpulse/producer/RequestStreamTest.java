package io.tokenpulse.producer;

import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.producer.backend.Backends;
import io.tokenpulse.producer.dataset.Prompt;
import io.tokenpulse.producer.dataset.SampledRequest;
import io.tokenpulse.producer.http.StreamError;
import io.tokenpulse.producer.publish.RecordSink;
import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.avro.RequestEvent;
import io.tokenpulse.schemas.avro.RequestFinished;
import io.tokenpulse.schemas.avro.RequestStarted;
import io.tokenpulse.tokenizers.ChatMessage;
import io.tokenpulse.tokenizers.Tokenizer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RequestStreamTest {

    private static final long START_NS = 1_000_000_000L;
    private static final long EPOCH_NS = 1_700_000_000_000_000_000L;
    private static final long MS = 1_000_000L;

    private final List<RequestEvent> requests = new ArrayList<>();
    private final List<Chunk> chunks = new ArrayList<>();
    private final RunTally tally = new RunTally();
    private final List<Long> firstTokens = new ArrayList<>();
    private int ends;

    @Test
    void everyChoicesEventBecomesOneChunkTimedFromSentAndTheFinishCarriesUsageCounts() {
        RequestStream stream = stream(7, 10 * MS, Dispatcher.NO_LIMIT);
        stream.onConnected(3 * MS);
        stream.onRequestSent(START_NS + 12 * MS);
        stream.onResponseStart(200, Map.of());
        stream.onBytes(sse(completion("a") + completion("b")), START_NS + 62 * MS);
        stream.onBytes(sse(completion("c") + usageOnly(40, 3) + "data: [DONE]\n\n"), START_NS + 82 * MS);
        stream.onComplete(START_NS + 83 * MS);

        assertThat(chunks).extracting(Chunk::getSeq).containsExactly(0, 1, 2);
        assertThat(chunks).extracting(Chunk::getOffsetNs).containsExactly(50 * MS, 50 * MS, 70 * MS);
        assertThat(chunks).extracting(Chunk::getGapNs).containsExactly(0L, 0L, 20 * MS);
        assertThat(chunks.get(2).getArrivedEpochNs()).isEqualTo(EPOCH_NS + 82 * MS);
        assertThat(firstTokens).as("the live TTFT, once per request").containsExactly(50 * MS);
        assertThat(chunks).allSatisfy(c -> {
            assertThat(c.getRunId()).isEqualTo("run-1");
            assertThat(c.getRequestIndex()).isEqualTo(7);
        });

        RequestStarted started = (RequestStarted) requests.get(0).getEvent();
        assertThat(started.getScheduledOffsetNs()).isEqualTo(10 * MS);
        assertThat(started.getSentOffsetNs()).isEqualTo(12 * MS);
        assertThat(started.getPermitOffsetNs())
                .as("permit equals sent without a limit")
                .isEqualTo(12 * MS);
        assertThat(started.getConnectNs()).isEqualTo(3 * MS);
        assertThat(started.getPromptLen()).isEqualTo(100);

        RequestFinished finished = finished();
        assertThat(finished.getSuccess()).isTrue();
        assertThat(finished.getError()).isEmpty();
        assertThat(finished.getChunkEvents()).isEqualTo(chunks.size());
        assertThat(finished.getOutputTokens()).as("usage.completion_tokens").isEqualTo(3);
        assertThat(finished.getPromptLen())
                .as("usage.prompt_tokens wins over the dataset's count")
                .isEqualTo(40);
        assertThat(finished.getUsagePromptTokens()).isEqualTo(40);
        assertThat(finished.getFirstNs()).isEqualTo(50 * MS);
        assertThat(finished.getLastNs()).isEqualTo(70 * MS);
        assertThat(finished.getFinishedOffsetNs()).isEqualTo(83 * MS);
        assertThat(finished.getGeneratedText()).isEqualTo("abc");
        assertThat(finished.getModel()).as("the model request 7 named").isEqualTo("adapter-7");
        assertThat(requests.get(1).getRequestId()).isEqualTo("bench-7");
        assertThat(tally.counts().succeeded()).isEqualTo(1);
        assertThat(tally.counts().chunkEvents()).isEqualTo(3);
        assertThat(ends).isEqualTo(1);
    }

    @Test
    void withoutUsageTheOutputTokensAreTheTokenizersCountAndThePromptLengthTheDatasets() {
        RequestStream stream = stream(0, 0, START_NS + 1 * MS);
        stream.onRequestSent(START_NS + 2 * MS);
        stream.onResponseStart(200, Map.of());
        stream.onBytes(sse(completion("one two ") + completion("three")), START_NS + 5 * MS);
        stream.onComplete(START_NS + 6 * MS);

        RequestFinished finished = finished();
        assertThat(finished.getOutputTokens()).isEqualTo(3);
        assertThat(finished.getPromptLen()).isEqualTo(100);
        assertThat(finished.getUsageCompletionTokens()).isNull();
        RequestStarted started = (RequestStarted) requests.get(0).getEvent();
        assertThat(started.getPermitOffsetNs()).isEqualTo(1 * MS);
        assertThat(started.getSentOffsetNs()).isEqualTo(2 * MS);
    }

    @Test
    void aServerErrorIsAFailedRequestWithStatusAndReason() {
        RequestStream stream = stream(3, 0, Dispatcher.NO_LIMIT);
        stream.onRequestSent(START_NS);
        stream.onResponseStart(500, Map.of());
        stream.onError(new StreamError(
                StreamError.Kind.HTTP_STATUS, 500, "HTTP 500 from x", "{\"error\": {\"message\": \"boom\"}}"));

        assertThat(requests).hasSize(2);
        RequestFinished finished = finished();
        assertThat(finished.getSuccess()).isFalse();
        assertThat(finished.getHttpStatus()).isEqualTo(500);
        assertThat(finished.getError()).isEqualTo("HTTP 500: {\"error\": {\"message\": \"boom\"}}");
        assertThat(finished.getFirstNs()).isNull();
        assertThat(finished.getChunkEvents()).isZero();
        assertThat(tally.counts().failed()).isEqualTo(1);
        assertThat(tally.counts().failureReasons()).containsEntry(finished.getError(), 1L);
    }

    @Test
    void theFinishCarriesTheSecondsOfAudioTheBackendSentFailedOrNot() {
        RequestStream audio = stream(7, 0, Dispatcher.NO_LIMIT, "openai-audio");
        audio.onError(new StreamError(StreamError.Kind.HTTP_STATUS, 503, "HTTP 503 from x", ""));
        assertThat(finished().getInputAudioDurationS())
                .as("a text prompt gets openai-audio's synthetic 5 s tone; a failure keeps its seconds")
                .isEqualTo(5.0);

        requests.clear();
        RequestStream text = stream(8, 0, Dispatcher.NO_LIMIT, "openai-chat");
        text.onError(new StreamError(StreamError.Kind.HTTP_STATUS, 503, "HTTP 503 from x", ""));
        assertThat(finished().getInputAudioDurationS()).isZero();
    }

    @Test
    void aRequestThatNeverConnectedStillGetsBothRecordsWithSentAtItsLaunch() {
        RequestStream stream = stream(4, 0, Dispatcher.NO_LIMIT);
        stream.onError(
                new StreamError(StreamError.Kind.CONNECT_FAILED, 0, "cannot connect to 127.0.0.1:1: refused", ""));

        RequestStarted started = (RequestStarted) requests.get(0).getEvent();
        assertThat(started.getSentOffsetNs())
                .as("launched 9 ms after the start")
                .isEqualTo(9 * MS);
        RequestFinished finished = finished();
        assertThat(finished.getHttpStatus()).isZero();
        assertThat(finished.getError()).isEqualTo("cannot connect to 127.0.0.1:1: refused");
        assertThat(ends).isEqualTo(1);
    }

    @Test
    void aReasoningModelsThinkingCountsAsOutputWhenTheServerReportsNoUsage() {
        RequestStream stream = stream(6, 0, Dispatcher.NO_LIMIT, "openai-chat");
        stream.onRequestSent(START_NS);
        stream.onResponseStart(200, Map.of());
        stream.onBytes(
                sse("data: {\"choices\": [{\"index\": 0, \"delta\": {\"reasoning_content\": \"Let me think.\"}}]}\n\n"
                        + "data: {\"choices\": [{\"index\": 0, \"delta\": {\"content\": \"Hi there\"}}]}\n\n"
                        + "data: [DONE]\n\n"),
                START_NS + MS);
        stream.onComplete(START_NS + 2 * MS);

        RequestFinished finished = finished();
        assertThat(finished.getOutputTokens())
                .as("3 words of thinking + 2 of answer")
                .isEqualTo(5);
        assertThat(finished.getGeneratedText())
                .as("the answer, as vLLM keeps it")
                .isEqualTo("Hi there");
        assertThat(finished.getFirstNs()).isEqualTo(MS);
        assertThat(finished.getReasoningTokens())
                .as("the thinking's share, counted by the tokenizer without usage")
                .isEqualTo(3);
        assertThat(finished.getReasoningEvents()).isEqualTo(1);
        assertThat(finished.getFirstAnswerNs())
                .as("both events came in one read")
                .isEqualTo(MS);
    }

    @Test
    void reasoningTokensComeFromUsageWhenTheServerReportsThem() {
        RequestStream stream = stream(6, 0, Dispatcher.NO_LIMIT, "openai-chat");
        stream.onRequestSent(START_NS);
        stream.onResponseStart(200, Map.of());
        stream.onBytes(
                sse("data: {\"choices\": [{\"index\": 0, \"delta\": {\"reasoning_content\": \"Let me think.\"}}]}\n\n"),
                START_NS + MS);
        stream.onBytes(
                sse("data: {\"choices\": [{\"index\": 0, \"delta\": {\"content\": \"Hi there\"}}]}\n\n"
                        + "data: {\"choices\": [], \"usage\": {\"prompt_tokens\": 4, \"completion_tokens\": 9,"
                        + " \"completion_tokens_details\": {\"reasoning_tokens\": 7}}}\n\n"
                        + "data: [DONE]\n\n"),
                START_NS + 3 * MS);
        stream.onComplete(START_NS + 4 * MS);

        RequestFinished finished = finished();
        assertThat(finished.getOutputTokens()).isEqualTo(9);
        assertThat(finished.getReasoningTokens()).isEqualTo(7);
        assertThat(finished.getFirstNs()).isEqualTo(MS);
        assertThat(finished.getFirstAnswerNs()).isEqualTo(3 * MS);
    }

    @Test
    void aStreamWithoutThinkingLeavesTheReasoningCountOut() {
        RequestStream stream = stream(6, 0, Dispatcher.NO_LIMIT, "openai-chat");
        stream.onRequestSent(START_NS);
        stream.onResponseStart(200, Map.of());
        stream.onBytes(
                sse("data: {\"choices\": [{\"index\": 0, \"delta\": {\"content\": \"Hi there\"}}]}\n\n"),
                START_NS + MS);
        stream.onComplete(START_NS + 2 * MS);

        RequestFinished finished = finished();
        assertThat(finished.getReasoningTokens()).isNull();
        assertThat(finished.getReasoningEvents()).isZero();
        assertThat(finished.getFirstAnswerNs()).isEqualTo(MS);
    }

    @Test
    void aStreamWithAnErrorEventFailsAfterItsChunksWerePublished() {
        RequestStream stream = stream(5, 0, Dispatcher.NO_LIMIT);
        stream.onRequestSent(START_NS);
        stream.onResponseStart(200, Map.of());
        stream.onBytes(sse(completion("x") + "data: {\"error\": {\"message\": \"overloaded\"}}\n\n"), START_NS + MS);
        stream.onComplete(START_NS + 2 * MS);

        assertThat(chunks).hasSize(1);
        RequestFinished finished = finished();
        assertThat(finished.getSuccess()).isFalse();
        assertThat(finished.getError()).contains("overloaded");
        assertThat(finished.getChunkEvents()).isEqualTo(1);
    }

    private RequestFinished finished() {
        assertThat(requests).hasSize(2);
        return (RequestFinished) requests.get(1).getEvent();
    }

    private RequestStream stream(int index, long offsetNs, long permitNs) {
        return stream(index, offsetNs, permitNs, "vllm");
    }

    private RequestStream stream(int index, long offsetNs, long permitNs, String backend) {
        RecordSink sink = new RecordSink() {
            @Override
            public void publishRequest(RequestEvent event) {
                requests.add(event);
            }

            @Override
            public void publishChunk(Chunk chunk) {
                chunks.add(chunk);
            }
        };
        RunContext run = new RunContext(
                "run-1",
                0,
                new Anchor(START_NS, EPOCH_NS),
                sink,
                tally,
                new WordTokenizer(),
                Runnable::run,
                true,
                () -> ends++,
                i -> "adapter-" + i,
                firstTokens::add,
                Backends.get(backend)::inputAudioSeconds);
        tally.requestStarted();
        PlannedRequest planned =
                new PlannedRequest(index, offsetNs, new SampledRequest(new Prompt.Text("p"), 100, 16, index));
        return new RequestStream(
                run,
                Backends.get(backend).newResponse(),
                planned,
                "bench-" + index,
                permitNs,
                START_NS + 9 * MS,
                (outcome, endNs) -> {},
                false);
    }

    private static String completion(String text) {
        return "data: {\"choices\": [{\"index\": 0, \"text\": \"" + text + "\"}]}\n\n";
    }

    private static String usageOnly(int prompt, int completion) {
        return "data: {\"choices\": [], \"usage\": {\"prompt_tokens\": " + prompt + ", \"completion_tokens\": "
                + completion + "}}\n\n";
    }

    private static ByteBuffer sse(String text) {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
    }

    /** One token per whitespace-separated word: enough to see the tokenizer was asked. */
    static final class WordTokenizer implements Tokenizer {
        @Override
        public String id() {
            return "words";
        }

        @Override
        public int[] encode(String text) {
            return text.isBlank() ? new int[0] : new int[text.strip().split("\\s+").length];
        }

        @Override
        public String decode(int[] ids) {
            return "w ".repeat(ids.length);
        }

        @Override
        public int vocabSize() {
            return 1000;
        }

        @Override
        public Set<Integer> specialTokenIds() {
            return Set.of();
        }

        @Override
        public int numSpecialTokensToAdd() {
            return 0;
        }

        @Override
        public boolean hasChatTemplate() {
            return false;
        }

        @Override
        public String applyChatTemplate(List<ChatMessage> messages, boolean addGenerationPrompt) {
            throw new IllegalStateException("no chat template");
        }
    }
}
