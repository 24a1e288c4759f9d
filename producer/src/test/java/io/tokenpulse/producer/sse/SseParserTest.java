package io.tokenpulse.producer.sse;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SseParserTest {

    record Event(String payload, long arrivalNs) {}

    /** Collects events; decodes payloads only to compare them. */
    static final class Recorder implements SseParser.Listener {
        final List<Event> events = new ArrayList<>();
        long doneNs = -1;

        @Override
        public void onData(byte[] data, int offset, int length, long arrivalNs) {
            events.add(new Event(new String(data, offset, length, UTF_8), arrivalNs));
        }

        @Override
        public void onDone(long arrivalNs) {
            doneNs = arrivalNs;
        }

        List<String> payloads() {
            return events.stream().map(Event::payload).toList();
        }

        List<Long> arrivals() {
            return events.stream().map(Event::arrivalNs).toList();
        }
    }

    static byte[] fixture(String name) throws IOException {
        try (InputStream in = SseParserTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return in.readAllBytes();
        }
    }

    private static Recorder parseWhole(byte[] body) {
        Recorder recorder = new Recorder();
        SseParser parser = new SseParser(recorder);
        parser.feed(body, 0, body.length, 1);
        parser.finish();
        return recorder;
    }

    /**
     * Reference for the timestamp rule: the index of the byte that ends the last data line of
     * each dispatched event (found with a plain line split, not the parser under test).
     */
    private static List<Integer> lastDataLineEnds(byte[] body) {
        List<Integer> ends = new ArrayList<>();
        int lineStart = 0;
        int lastDataEnd = -1;
        String payload = null;
        for (int i = 0; i < body.length; i++) {
            if (body[i] != '\n' && body[i] != '\r') {
                continue;
            }
            String line = new String(body, lineStart, i - lineStart, UTF_8);
            int terminator = i;
            if (body[i] == '\r' && i + 1 < body.length && body[i + 1] == '\n') {
                i++;
            }
            if (line.isEmpty()) {
                if (payload != null && !payload.isBlank() && !payload.strip().equals("[DONE]")) {
                    ends.add(lastDataEnd);
                }
                payload = null;
            } else if (line.equals("data") || line.startsWith("data:")) {
                payload = (payload == null ? "" : payload + "\n") + line.substring(Math.min(5, line.length()));
                lastDataEnd = terminator;
            }
            lineStart = i + 1;
        }
        return ends;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "vllm-completions-usage.sse, 9",
        "vllm-chat-usage.sse,        9",
        "proxied-crlf-comments.sse,  3",
    })
    void wholeFixtureYieldsEachDataPayloadAndDone(String name, int events) throws IOException {
        byte[] body = fixture(name);
        Recorder recorder = new Recorder();
        SseParser parser = new SseParser(recorder);
        parser.feed(body, 0, body.length, 5);
        SseParser.StreamEnd end = parser.finish();

        assertThat(recorder.events).hasSize(events);
        assertThat(recorder.arrivals()).containsOnly(5L);
        assertThat(recorder.payloads()).allMatch(p -> p.startsWith("{")).noneMatch(p -> p.contains("DONE"));
        assertThat(end).isEqualTo(new SseParser.StreamEnd(true, events, false));
        assertThat(recorder.doneNs).isEqualTo(5);
    }

    @Test
    void vllmCompletionsPayloadsAreTheDataLinesDecodedWhole() throws IOException {
        List<String> payloads =
                parseWhole(fixture("vllm-completions-usage.sse")).payloads();
        assertThat(payloads.get(1)).contains("\"text\":\" café\"");
        assertThat(payloads.get(3)).contains("\"text\":\" 日本\"");
        assertThat(payloads.get(6)).contains("\"text\":\" 🙂\"");
        assertThat(payloads.get(8)).contains("\"choices\":[]").contains("\"completion_tokens\":8");
    }

    @Test
    void multiLineDataIsJoinedWithNewlineAndFieldsCommentsAndCrOnlyLinesAreHandled() throws IOException {
        // The second event ends at the CR CR; its "data" line without colon opens a third event
        // that a blank line dispatches empty, so it is skipped.
        assertThat(parseWhole(fixture("proxied-crlf-comments.sse")).payloads())
                .containsExactly(
                        "{\"choices\": [{\"text\": \"multi\",\n \"index\": 0}]}",
                        "{\"choices\": [{\"text\": \" line\\u00e9 é\"}]}",
                        "{\"choices\": [{\"text\": \"cr only\"}]}");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"vllm-completions-usage.sse", "vllm-chat-usage.sse", "proxied-crlf-comments.sse"})
    void splitAtEveryBytePositionGivesTheSameEventsStampedByTheReadThatEndedTheirDataLine(String name)
            throws IOException {
        byte[] body = fixture(name);
        List<String> expected = parseWhole(body).payloads();
        List<Integer> dataEnds = lastDataLineEnds(body);
        assertThat(dataEnds).hasSize(expected.size());
        for (int split = 0; split <= body.length; split++) {
            Recorder recorder = new Recorder();
            SseParser parser = new SseParser(recorder);
            parser.feed(ByteBuffer.wrap(body, 0, split), 1);
            parser.feed(ByteBuffer.wrap(body, split, body.length - split), 2);
            SseParser.StreamEnd end = parser.finish();

            assertThat(recorder.payloads()).as("split at %d", split).isEqualTo(expected);
            final int at = split;
            assertThat(recorder.arrivals())
                    .as("split at %d", split)
                    .isEqualTo(dataEnds.stream().map(e -> e < at ? 1L : 2L).toList());
            assertThat(end.doneSeen()).isTrue();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"vllm-completions-usage.sse", "vllm-chat-usage.sse", "proxied-crlf-comments.sse"})
    void oneByteReadsStampEachEventWithTheByteThatEndedItsLastDataLine(String name) throws IOException {
        byte[] body = fixture(name);
        Recorder recorder = new Recorder();
        SseParser parser = new SseParser(recorder);
        for (int i = 0; i < body.length; i++) {
            parser.feed(body, i, 1, i);
        }
        parser.finish();
        assertThat(recorder.payloads()).isEqualTo(parseWhole(body).payloads());
        assertThat(recorder.arrivals())
                .isEqualTo(lastDataLineEnds(body).stream().map(Long::valueOf).toList());
    }

    @Test
    void eventsCompletedByOneReadShareThatReadsTimestamp() {
        Recorder recorder = new Recorder();
        SseParser parser = new SseParser(recorder);
        feed(parser, "data: {\"a\":1}\n\ndata: {\"b\"", 10);
        feed(parser, ":2}\n\ndata: {\"c\":3}\n\ndata: {\"d\":4}\n", 20);
        feed(parser, "\n", 30);
        assertThat(recorder.events)
                .containsExactly(
                        new Event("{\"a\":1}", 10), new Event("{\"b\":2}", 20),
                        new Event("{\"c\":3}", 20), new Event("{\"d\":4}", 20));
    }

    @Test
    void streamThatEndsWithoutDoneIsReported() {
        Recorder recorder = new Recorder();
        SseParser parser = new SseParser(recorder);
        feed(parser, "data: {\"a\":1}\n\n", 1);
        assertThat(parser.finish()).isEqualTo(new SseParser.StreamEnd(false, 1, false));
        assertThat(recorder.doneNs).isEqualTo(-1);
    }

    @Test
    void unterminatedLastEventIsDispatchedAtFinishAndFlagged() {
        Recorder recorder = new Recorder();
        SseParser parser = new SseParser(recorder);
        feed(parser, "data: {\"a\":1}\n\ndata: {\"b\":", 1);
        feed(parser, "2}", 2);
        assertThat(parser.finish()).isEqualTo(new SseParser.StreamEnd(false, 2, true));
        assertThat(recorder.events).containsExactly(new Event("{\"a\":1}", 1), new Event("{\"b\":2}", 2));
    }

    @Test
    void commentsPingsAndEmptyDataProduceNoEvents() {
        Recorder recorder = new Recorder();
        SseParser parser = new SseParser(recorder);
        feed(parser, ": ping\n\nevent: ping\nid: 7\n\ndata:\n\ndata:   \n\nretry: 5\n\n", 1);
        assertThat(parser.finish()).isEqualTo(new SseParser.StreamEnd(false, 0, false));
        assertThat(recorder.events).isEmpty();
    }

    @Test
    void eventsLargerThan16MiBArriveWholeAcrossManyReads() {
        int textBytes = 17 * 1024 * 1024;
        byte[] big = new byte[textBytes + 64];
        String head = "data: {\"choices\":[{\"text\":\"";
        String tail = "\"}]}\n\n";
        System.arraycopy(head.getBytes(UTF_8), 0, big, 0, head.length());
        Arrays.fill(big, head.length(), head.length() + textBytes, (byte) 'x');
        System.arraycopy(tail.getBytes(UTF_8), 0, big, head.length() + textBytes, tail.length());
        int total = head.length() + textBytes + tail.length();

        int[] seen = new int[2];
        // Above the 10 MiB default: the limit is a parameter, the growth of the buffers is under test.
        SseParser parser = new SseParser(
                (data, offset, length, arrivalNs) -> {
                    seen[0]++;
                    seen[1] = length;
                },
                32 * 1024 * 1024);
        for (int i = 0; i < total; i += 65536) {
            parser.feed(big, i, Math.min(65536, total - i), i);
        }
        parser.finish();
        assertThat(seen).containsExactly(1, total - "data: ".length() - 2);
    }

    @Test
    void eventOverTheLimitFailsWithAOneLineMessage() {
        SseParser parser = new SseParser((d, o, l, t) -> {}, 1024);
        byte[] line = ("data: " + "y".repeat(2000)).getBytes(UTF_8);
        assertThatThrownBy(() -> parser.feed(line, 0, line.length, 0))
                .isInstanceOf(SseException.class)
                .hasMessageContaining("limit of 1024 bytes")
                .hasMessageNotContaining("\n");
    }

    @Test
    void directBuffersAreParsedLikeArrays() throws IOException {
        byte[] body = fixture("vllm-chat-usage.sse");
        ByteBuffer direct = ByteBuffer.allocateDirect(body.length);
        direct.put(body).flip();
        Recorder recorder = new Recorder();
        SseParser parser = new SseParser(recorder);
        parser.feed(direct, 3);
        assertThat(direct.hasRemaining()).isFalse();
        assertThat(parser.finish().doneSeen()).isTrue();
        assertThat(recorder.payloads()).isEqualTo(parseWhole(body).payloads());
    }

    @Test
    void directBuffersSplitAtEveryPositionGiveTheSameEventsWithMultiByteCharactersCut() {
        // data: with and without the space, a 2-, 3- and 4-byte character, an error event, [DONE]
        byte[] body = ("data: {\"text\":\"é\"}\n\ndata:{\"text\":\"日本\"}\r\n\r\n: ping\n\n"
                        + "data: {\"text\":\"🙂\"}\n\ndata: {\"error\":{\"message\":\"overloaded\"}}\n\n"
                        + "data: [DONE]\n\n")
                .getBytes(UTF_8);
        Recorder whole = parseWhole(body);
        assertThat(whole.payloads())
                .containsExactly(
                        "{\"text\":\"é\"}",
                        "{\"text\":\"日本\"}",
                        "{\"text\":\"🙂\"}",
                        "{\"error\":{\"message\":\"overloaded\"}}");
        for (int cut = 1; cut < body.length; cut++) {
            Recorder recorder = new Recorder();
            SseParser parser = new SseParser(recorder);
            parser.feed(direct(body, 0, cut), 1);
            parser.feed(direct(body, cut, body.length), 2);
            assertThat(parser.finish().doneSeen()).as("cut at %d", cut).isTrue();
            assertThat(recorder.payloads()).as("cut at %d", cut).isEqualTo(whole.payloads());
        }
    }

    @Test
    void aListenerThatFeedsAnotherParserFromADirectBufferDoesNotCorruptThisOne() {
        byte[] inner = "data: inner\n\n".getBytes(UTF_8);
        Recorder innerRecorder = new Recorder();
        SseParser innerParser = new SseParser(innerRecorder);
        List<String> outer = new ArrayList<>();
        SseParser parser = new SseParser((data, offset, length, arrivalNs) -> {
            outer.add(new String(data, offset, length, UTF_8));
            innerParser.feed(direct(inner, 0, inner.length), arrivalNs);
        });
        byte[] body = "data: one\n\ndata: two\n\n".getBytes(UTF_8);
        parser.feed(direct(body, 0, body.length), 1);
        assertThat(outer).containsExactly("one", "two");
        assertThat(innerRecorder.payloads()).containsExactly("inner", "inner");
    }

    private static ByteBuffer direct(byte[] bytes, int from, int to) {
        ByteBuffer direct = ByteBuffer.allocateDirect(to - from);
        direct.put(bytes, from, to - from).flip();
        return direct;
    }

    @Test
    void parsingDoesNotAllocatePerByteOrPerEvent() throws IOException {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        byte[] body = fixture("vllm-completions-usage.sse");
        long[] sink = new long[1];
        SseParser.Listener counting = (data, offset, length, arrivalNs) -> sink[0] += length;
        // Warm up so buffers have grown and the loop is compiled.
        for (int round = 0; round < 200; round++) {
            feedInSmallReads(new SseParser(counting), body);
        }
        SseParser parser = new SseParser(counting);
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int round = 0; round < 200; round++) {
            feedInSmallReads(parser, body);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        // 200 rounds x ~2 KB x 10 events: a per-byte or per-event allocation would be >= 400 KB.
        assertThat(allocated).isLessThan(64 * 1024);
        assertThat(sink[0]).isPositive();
    }

    private static void feedInSmallReads(SseParser parser, byte[] body) {
        for (int i = 0; i < body.length; i += 7) {
            parser.feed(body, i, Math.min(7, body.length - i), i);
        }
    }

    private static void feed(SseParser parser, String text, long arrivalNs) {
        byte[] bytes = text.getBytes(UTF_8);
        parser.feed(bytes, 0, bytes.length, arrivalNs);
    }
}
