package io.tokenpulse.aggregator.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.ServerMetric;
import io.tokenpulse.schemas.avro.WindowMetrics;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.MockProcessorContext.CapturedPunctuator;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Open windows live in memory between flushes; what a stopped task had not flushed is applied again. */
class RunWindowsTest {
    private static final long MS = 1_000_000L;
    private static final long T0_MS = 1_700_000_000_000L; // a 10 s window boundary
    private static final Duration SIZE = Duration.ofSeconds(10);
    private static final Duration GRACE = Duration.ofSeconds(30);
    private static final Duration FLUSH = Duration.ofMillis(100);

    private KeyValueStore<String, WindowRecords.State> states;
    private KeyValueStore<String, RunWindows.Counted> pending;

    @BeforeEach
    void stores() {
        // in memory and outliving the processors, as a task's stores outlive its restart
        states = Stores.keyValueStoreBuilder(
                        Stores.inMemoryKeyValueStore(RunWindows.STATES_STORE), Serdes.String(), WindowRecords.serde())
                .withLoggingDisabled()
                .build();
        pending = Stores.keyValueStoreBuilder(
                        Stores.inMemoryKeyValueStore(RunWindows.PENDING_STORE),
                        Serdes.String(),
                        RunWindows.pendingSerde())
                .withLoggingDisabled()
                .build();
        MockProcessorContext<String, WindowMetrics> context = new MockProcessorContext<>();
        states.init(context.getStateStoreContext(), states);
        pending.init(context.getStateStoreContext(), pending);
    }

    private MockProcessorContext<String, WindowMetrics> started(RunWindows windows) {
        MockProcessorContext<String, WindowMetrics> context = new MockProcessorContext<>();
        context.addStateStore(states);
        context.addStateStore(pending);
        windows.init(context);
        return context;
    }

    /** What Kafka Streams runs when the flush is due; nothing while none is scheduled. */
    private static void flush(MockProcessorContext<String, WindowMetrics> context) {
        scheduledFlush(context).ifPresent(flush -> flush.getPunctuator().punctuate(0));
    }

    private static Optional<CapturedPunctuator> scheduledFlush(MockProcessorContext<String, WindowMetrics> context) {
        return context.scheduledPunctuators().stream()
                .filter(punctuator -> !punctuator.cancelled())
                .reduce((earlier, later) -> later);
    }

    private static void process(
            RunWindows windows, MockProcessorContext<String, WindowMetrics> context, int index, long finishedMs) {
        process(windows, context, "r1", index, finishedMs);
    }

    private static void process(
            RunWindows windows,
            MockProcessorContext<String, WindowMetrics> context,
            String run,
            int index,
            long finishedMs) {
        context.setRecordMetadata("requests-by-run", 0, index);
        windows.process(new Record<>(run, new RunWindows.Request(request(run, index, finishedMs)), finishedMs));
    }

    @Test
    void aWindowIsWrittenAndEmittedOncePerFlushWithEveryRequestInIt() {
        RunWindows windows = new RunWindows(SIZE, GRACE, FLUSH);
        var context = started(windows);

        process(windows, context, 0, T0_MS + 1_000);
        process(windows, context, 1, T0_MS + 2_000);
        assertThat(context.forwarded()).isEmpty();
        assertThat(scheduledFlush(context)).hasValueSatisfying(flush -> {
            assertThat(flush.getInterval()).isEqualTo(FLUSH);
            assertThat(flush.getType()).isEqualTo(PunctuationType.WALL_CLOCK_TIME);
        });
        flush(context);

        assertThat(context.forwarded()).hasSize(1);
        WindowMetrics w = context.forwarded().get(0).record().value();
        assertThat(w.getWindowStartEpochMs()).isEqualTo(T0_MS);
        assertThat(w.getCompleted()).isEqualTo(2);
        assertThat(states.get(RunWindows.windowKey("r1", T0_MS)).requests().completed())
                .isEqualTo(2);
        try (var all = pending.all()) {
            assertThat(all.hasNext()).as("pending after the flush").isFalse();
        }
        flush(context);
        assertThat(context.forwarded()).as("nothing changed: nothing emitted").hasSize(1);
    }

    /**
     * Kafka Streams commits after each punctuation, a transaction under exactly-once: an idle
     * pipeline (a run waiting on a slow server) must not punctuate (issue 30).
     */
    @Test
    void noFlushIsScheduledWhileNoRecordWaitsForOne() {
        RunWindows windows = new RunWindows(SIZE, GRACE, FLUSH);
        var context = started(windows);
        assertThat(scheduledFlush(context)).as("before any record").isEmpty();

        process(windows, context, 0, T0_MS + 1_000);
        process(windows, context, 1, T0_MS + 1_500);
        assertThat(context.scheduledPunctuators())
                .as("one flush for both records")
                .hasSize(1);
        flush(context);
        assertThat(scheduledFlush(context)).as("after the flush").isEmpty();

        process(windows, context, 2, T0_MS + 2_000);
        flush(context);
        assertThat(context.forwarded())
                .extracting(f -> f.record().value().getCompleted())
                .containsExactly(2L, 3L);
    }

    @Test
    void requestsATaskTookInButDidNotFlushCountAfterItsRestartOnce() {
        RunWindows before = new RunWindows(SIZE, GRACE, FLUSH);
        var first = started(before);
        process(before, first, 0, T0_MS + 1_000);
        flush(first);
        process(before, first, 1, T0_MS + 2_000); // committed, not flushed: the task stops here

        RunWindows after = new RunWindows(SIZE, GRACE, FLUSH);
        var second = started(after);
        flush(second); // before any new record: the pending one is back, and its window stays open
        assertThat(second.forwarded()).hasSize(1);
        assertThat(second.forwarded().get(0).record().value().getCompleted()).isEqualTo(2);
        process(after, second, 2, T0_MS + 3_000);
        flush(second);

        assertThat(second.forwarded()).hasSize(2);
        assertThat(second.forwarded().get(1).record().value().getCompleted()).isEqualTo(3);
        RunWindows again = new RunWindows(SIZE, GRACE, FLUSH);
        var third = started(again);
        flush(third);
        assertThat(third.forwarded()).as("nothing pending any more").isEmpty();
        assertThat(states.get(RunWindows.windowKey("r1", T0_MS)).requests().completed())
                .isEqualTo(3);
    }

    /** A shard's RunStarted releases the requests that waited for it: one source record, several pending. */
    @Test
    void requestsFromOneSourceRecordAreEachKeptUntilTheFlush() {
        RunWindows before = new RunWindows(SIZE, GRACE, FLUSH);
        var first = started(before);
        first.setRecordMetadata("runs-by-run", 0, 7);
        for (int index = 0; index < 3; index++) {
            before.process(new Record<>(
                    "r1", new RunWindows.Request(request("r1", index, T0_MS + 1_000 + index)), T0_MS + 1_000 + index));
        }

        RunWindows after = new RunWindows(SIZE, GRACE, FLUSH);
        var second = started(after);
        flush(second);
        assertThat(second.forwarded()).hasSize(1);
        assertThat(second.forwarded().get(0).record().value().getCompleted()).isEqualTo(3);
    }

    @Test
    void aClosedWindowTakesNothingAndLeavesItsStore() {
        RunWindows windows = new RunWindows(SIZE, GRACE, FLUSH);
        var context = started(windows);
        process(windows, context, 0, T0_MS + 1_000);
        process(windows, context, 1, T0_MS + 45_000); // stream time past the first window's end + grace
        flush(context);
        assertThat(states.get(RunWindows.windowKey("r1", T0_MS))).as("closed").isNull();

        process(windows, context, 2, T0_MS + 2_000); // late
        flush(context);
        assertThat(context.forwarded())
                .extracting(f -> f.record().value().getWindowStartEpochMs())
                .containsExactly(T0_MS, T0_MS + 40_000);
    }

    @Test
    void aRunsSummaryFlushesThatRunsWindowsAtOnce() {
        RunWindows windows = new RunWindows(SIZE, GRACE, FLUSH);
        var context = started(windows);
        process(windows, context, "r1", 0, T0_MS + 1_000);
        process(windows, context, "r2", 1, T0_MS + 1_500);

        windows.process(new Record<>("r1", new RunWindows.RunSummarized(), T0_MS + 1_600));

        assertThat(context.forwarded())
                .extracting(f -> (String) f.record().key())
                .containsExactly("r1");
        assertThat(context.committed()).as("the summary is committed at once").isTrue();
        flush(context);
        assertThat(context.forwarded())
                .extracting(f -> (String) f.record().key())
                .containsExactly("r1", "r2");
    }

    /** An upgrade in the middle of a run reads back what the previous version left pending, and the other way round. */
    @Test
    void aPendingRecordKeepsItsBytesTheAvroUnionOfARequestAndAScrapeDelta() {
        Serde<SpecificRecord> union =
                StoreSerdes.avro(Schema.createUnion(RequestMetrics.getClassSchema(), ServerMetric.getClassSchema()));
        Serde<RunWindows.Counted> typed = RunWindows.pendingSerde();
        RequestMetrics request = request("r1", 0, T0_MS + 1_000);
        ServerMetric delta = ServerMetric.newBuilder()
                .setRunId("r1")
                .setScrapeEpochNs(T0_MS * MS)
                .setSource("http://s/metrics")
                .setName("vllm:num_requests_running")
                .setType("gauge")
                .setLabels(Map.of())
                .setValue(3.0)
                .build();

        for (RunWindows.Counted counted : List.of(new RunWindows.Request(request), new RunWindows.ServerDelta(delta))) {
            byte[] before = union.serializer().serialize(RunWindows.PENDING_STORE, counted.avro());
            assertThat(typed.serializer().serialize(RunWindows.PENDING_STORE, counted))
                    .isEqualTo(before);
            assertThat(typed.deserializer().deserialize(RunWindows.PENDING_STORE, before))
                    .isEqualTo(counted);
        }
    }

    private static RequestMetrics request(String run, int index, long finishedMs) {
        return RequestMetrics.newBuilder()
                .setRunId(run)
                .setShardIndex(0)
                .setRequestIndex(index)
                .setRequestId("id-" + index)
                .setSuccess(true)
                .setHttpStatus(200)
                .setError("")
                .setPromptLen(10)
                .setOutputTokens(2)
                .setTtftNs(100 * MS)
                .setE2elNs(200 * MS)
                .setTpotNs(100.0 * MS)
                .setTokenLatencyNs(100.0 * MS)
                .setQueueDelayNs(0L)
                .setConnectNs(0)
                .setItlNs(List.of(100 * MS))
                .setSentEpochNs((finishedMs - 200) * MS)
                .setFinishedEpochNs(finishedMs * MS)
                .build();
    }
}
