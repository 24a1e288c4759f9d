package io.tokenpulse.producer;

import com.sun.management.ThreadMXBean;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.tokenpulse.producer.backend.Backends;
import io.tokenpulse.producer.dataset.Prompt;
import io.tokenpulse.producer.dataset.SampledRequest;
import io.tokenpulse.producer.publish.ChunkBench;
import io.tokenpulse.producer.publish.RecordSink;
import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.avro.RequestEvent;
import io.tokenpulse.tokenizers.ChatMessage;
import io.tokenpulse.tokenizers.Tokenizer;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The client's per-event work on one thread, as the I/O thread does it: one SSE event per socket
 * read in a pooled direct ByteBuf, handed to the request's StreamReader exactly as Connection hands
 * it, parsed, tracked, built into a Chunk and handed to a sink; with {@code sink=publish} the sink
 * also does what the publisher's sender thread does with it (key and value bytes). Prints per event:
 * allocated bytes (ThreadMXBean), thread CPU ns and wall ns, per round after warm-up rounds.
 *
 * <p>args: backend=vllm|openai-chat events=200000 rounds=8 warmup=4 sink=hold|publish
 */
public final class HotPathBench {

    static final long START_NS = 1_000_000_000L;
    static final int EVENTS_PER_REQUEST = 100;

    public static void main(String[] args) {
        String backend = arg(args, "backend", "vllm");
        int events = Integer.parseInt(arg(args, "events", "200000"));
        int rounds = Integer.parseInt(arg(args, "rounds", "8"));
        int warmup = Integer.parseInt(arg(args, "warmup", "4"));
        String sinkKind = arg(args, "sink", "hold");
        ChunkBench publisher = sinkKind.equals("publish") ? new ChunkBench() : null;
        long[] sunk = new long[1];
        RecordSink sink = new RecordSink() {
            @Override
            public void publishRequest(RequestEvent event) {
                sunk[0]++;
            }

            @Override
            public void publishChunk(Chunk chunk) {
                sunk[0] += publisher == null ? chunk.getSeq() : publisher.encode(chunk);
            }
        };
        RunContext run = new RunContext(
                "bench-run-0123456789abcdef", 0, new Anchor(START_NS, 1_700_000_000_000_000_000L), sink,
                new RunTally(), new NoTokenizer(), r -> {}, false, () -> {}, i -> "sim-model", ttft -> {});
        boolean chat = backend.contains("chat");
        ByteBuf[] bufs = new ByteBuf[EVENTS_PER_REQUEST];
        String[] words = {" the", " quick", " brown", " fox", " jumps", " über", " 日本", " lazy", " dog", "."};
        for (int i = 0; i < EVENTS_PER_REQUEST; i++) {
            String word = words[i % words.length];
            String json = chat
                    ? "{\"id\":\"chatcmpl-bench-17\",\"object\":\"chat.completion.chunk\",\"created\":1764270000,"
                            + "\"model\":\"sim-model\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + word
                            + "\"},\"logprobs\":null,\"finish_reason\":null}],\"usage\":null}"
                    : "{\"id\":\"cmpl-bench-17\",\"object\":\"text_completion\",\"created\":1764270000,"
                            + "\"model\":\"sim-model\",\"choices\":[{\"index\":0,\"text\":\"" + word
                            + "\",\"logprobs\":null,\"finish_reason\":null,\"stop_reason\":null}],\"usage\":null}";
            byte[] bytes = ("data: " + json + "\n\n").getBytes(StandardCharsets.UTF_8);
            bufs[i] = PooledByteBufAllocator.DEFAULT.directBuffer(bytes.length);
            bufs[i].writeBytes(bytes);
        }
        ThreadMXBean mx = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        System.out.printf("backend=%s sink=%s events/round=%d (%d-event requests, %d B/event)%n",
                backend, sinkKind, events, EVENTS_PER_REQUEST, bufs[0].readableBytes());
        System.out.println("round  alloc_B/ev  cpu_ns/ev  wall_ns/ev");
        double[] alloc = new double[rounds];
        double[] cpu = new double[rounds];
        for (int r = 0; r < warmup + rounds; r++) {
            long a0 = mx.getCurrentThreadAllocatedBytes();
            long c0 = mx.getCurrentThreadCpuTime();
            long w0 = System.nanoTime();
            int requests = events / EVENTS_PER_REQUEST;
            for (int q = 0; q < requests; q++) {
                PlannedRequest planned = new PlannedRequest(
                        q, 0, new SampledRequest(new Prompt.Text("p"), 32, EVENTS_PER_REQUEST, q));
                RequestStream stream = new RequestStream(
                        run, Backends.get(backend).newResponse(), planned, "bench-" + q, Dispatcher.NO_LIMIT, START_NS,
                        (outcome, endNs) -> {}, false);
                stream.onConnected(0);
                stream.onRequestSent(START_NS);
                stream.onResponseStart(200, Map.of());
                long t = START_NS + 50_000_000L;
                for (int e = 0; e < EVENTS_PER_REQUEST; e++) {
                    ByteBuf buf = bufs[e];
                    buf.readerIndex(0);
                    Feed.bytes(stream, buf, t);
                    t += 20_000_000L;
                }
                stream.onComplete(t);
            }
            long w = System.nanoTime() - w0;
            long c = mx.getCurrentThreadCpuTime() - c0;
            long a = mx.getCurrentThreadAllocatedBytes() - a0;
            int n = requests * EVENTS_PER_REQUEST;
            System.out.printf("%s%-5d %10.1f %10.1f %11.1f%n", r < warmup ? "w" : " ", r, a / (double) n,
                    c / (double) n, w / (double) n);
            if (r >= warmup) {
                alloc[r - warmup] = a / (double) n;
                cpu[r - warmup] = c / (double) n;
            }
        }
        java.util.Arrays.sort(alloc);
        java.util.Arrays.sort(cpu);
        System.out.printf("median: alloc %.1f B/event, cpu %.1f ns/event (min %.1f) [%d]%n",
                alloc[rounds / 2], cpu[rounds / 2], cpu[0], sunk[0] & 1);
    }

    private static String arg(String[] args, String name, String dflt) {
        for (String a : args) {
            if (a.startsWith(name + "=")) {
                return a.substring(name.length() + 1);
            }
        }
        return dflt;
    }

    /** Counting output tokens runs off the I/O thread (run.counting()), so it is not part of this loop. */
    static final class NoTokenizer implements Tokenizer {
        public String id() { return "none"; }
        public int[] encode(String text) { return new int[0]; }
        public String decode(int[] ids) { return ""; }
        public int vocabSize() { return 1; }
        public Set<Integer> specialTokenIds() { return Set.of(); }
        public int numSpecialTokensToAdd() { return 0; }
        public boolean hasChatTemplate() { return false; }
        public String applyChatTemplate(List<ChatMessage> messages, boolean addGenerationPrompt) { return ""; }
    }
}
