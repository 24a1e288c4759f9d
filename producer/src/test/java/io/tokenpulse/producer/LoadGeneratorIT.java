package io.tokenpulse.producer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.tokenpulse.platform.Platform;
import io.tokenpulse.producer.dataset.DatasetOptions;
import io.tokenpulse.producer.dataset.PromptStyle;
import io.tokenpulse.producer.publish.EventPublisher;
import io.tokenpulse.producer.publish.PublisherSettings;
import io.tokenpulse.producer.schedule.ArrivalSettings;
import io.tokenpulse.producer.session.SessionOptions;
import io.tokenpulse.schemas.ChunkBatches;
import io.tokenpulse.schemas.TopicSpec;
import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.avro.RequestEvent;
import io.tokenpulse.schemas.avro.RequestFinished;
import io.tokenpulse.schemas.avro.RequestStarted;
import io.tokenpulse.schemas.avro.RunEvent;
import io.tokenpulse.schemas.avro.RunFinished;
import io.tokenpulse.schemas.avro.RunStarted;
import io.tokenpulse.schemas.registry.SchemaRegistryClient;
import io.tokenpulse.schemas.registry.SchemaRegistrySettings;
import io.tokenpulse.simulator.SimulatorConfig;
import io.tokenpulse.simulator.SimulatorServer;
import io.tokenpulse.tokenizers.Tokenizer;
import io.tokenpulse.tokenizers.TokenizerLoader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whole runs against a real server, through the embedded broker and registry, read back from the topics. */
class LoadGeneratorIT {

    private static final Path QWEN3 = Path.of("../testdata/tokenizers/qwen3");

    @TempDir
    static Path dataDir;

    private static Platform platform;
    private static Tokenizer tokenizer;

    @BeforeAll
    static void startPlatform() {
        platform = Platform.start(new Platform.Settings(dataDir, 0, 0));
        // the real Qwen3 tokenizer when the shared data is there, GPT-2's (jtokkit, built in) otherwise
        tokenizer = TokenizerLoader.fromEnvironment().load(Files.isDirectory(QWEN3) ? QWEN3.toString() : "gpt2");
    }

    @AfterAll
    static void stopPlatform() {
        if (platform != null) {
            platform.close();
        }
    }

    @Test
    void fiftyRequestsAgainstTheSimulatorArriveWholeInKafka() throws Exception {
        Set<String> requestIdsSeen = ConcurrentHashMap.newKeySet();
        Topics topics = topics("ok.");
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        LoadResult result;
        try (SimulatorServer server =
                        SimulatorServer.start(SimulatorConfig.deterministic(Duration.ofMillis(20), Duration.ofMillis(5))
                                .withSendListener(
                                        (requestId, seq, receivedNs, dueNs, sentNs) -> requestIdsSeen.add(requestId)));
                EventPublisher publisher =
                        EventPublisher.open(PublisherSettings.of(platform.bootstrapServers()), topics)) {
            result = new LoadGenerator(publisher, tokenizer, new PrintStream(console, true, StandardCharsets.UTF_8))
                    .run(settings("run-ok", server.baseUri(), 50, 8));
        }

        String printed = console.toString(StandardCharsets.UTF_8);
        assertThat(printed)
                .containsSubsequence(
                        "Checking server health at " + "http://127.0.0.1:",
                        "/health\n",
                        "Server is ready!\n",
                        "Starting initial single prompt test run...\n",
                        "Initial test run completed. Starting main benchmark run...\n",
                        "Traffic request rate: 100.0\n",
                        "Burstiness factor: 1.0 (Poisson process)\n",
                        "Maximum request concurrency: 8\n",
                        "100%|",
                        "| 50/50 [");
        assertThat(result.started()).isEqualTo(50);
        assertThat(result.succeeded()).isEqualTo(50);
        assertThat(result.failed()).isZero();
        assertThat(result.recordsNotDelivered()).isZero();
        assertThat(result.durationNs()).isPositive();

        List<RequestEvent> requests = readAll(topics.requests(), 100);
        Map<Integer, RequestFinished> finishedByIndex = new HashMap<>();
        Set<Integer> startedIndices = new TreeSet<>();
        for (RequestEvent event : requests) {
            assertThat(event.getRequestId()).isEqualTo("it-" + event.getRequestIndex());
            if (event.getEvent() instanceof RequestStarted started) {
                startedIndices.add(event.getRequestIndex());
                assertThat(started.getScheduledOffsetNs()).isLessThanOrEqualTo(started.getPermitOffsetNs());
                assertThat(started.getPermitOffsetNs()).isLessThanOrEqualTo(started.getSentOffsetNs());
            } else {
                finishedByIndex.put(event.getRequestIndex(), (RequestFinished) event.getEvent());
            }
        }
        Set<Integer> all = IntStream.range(0, 50).boxed().collect(Collectors.toCollection(TreeSet::new));
        assertThat(startedIndices).isEqualTo(all);
        assertThat(finishedByIndex.keySet()).isEqualTo(all);
        assertThat(requestIdsSeen)
                .as("x-request-id the server saw")
                .containsAll(all.stream().map(i -> "it-" + i).toList());

        long expectedChunks = finishedByIndex.values().stream()
                .mapToLong(RequestFinished::getChunkEvents)
                .sum();
        assertThat(result.chunkEvents()).isEqualTo(expectedChunks);
        List<Chunk> chunks = readChunks(topics, expectedChunks);
        assertThat(chunks).hasSize((int) expectedChunks);
        Map<Integer, List<Integer>> seqsByIndex = chunks.stream()
                .collect(Collectors.groupingBy(
                        Chunk::getRequestIndex, Collectors.mapping(Chunk::getSeq, Collectors.toList())));
        finishedByIndex.forEach((index, finished) -> {
            assertThat(finished.getSuccess()).isTrue();
            assertThat(finished.getChunkEvents()).isPositive();
            assertThat(seqsByIndex.get(index))
                    .as("chunks of request %d", index)
                    .containsExactlyInAnyOrderElementsOf(IntStream.range(0, finished.getChunkEvents())
                            .boxed()
                            .toList());
            assertThat(finished.getOutputTokens()).isPositive();
            assertThat(finished.getFirstNs())
                    .isGreaterThanOrEqualTo(Duration.ofMillis(20).toNanos());
        });

        List<RunEvent> runs = readAll(topics.runs(), 2);
        assertThat(runs)
                .extracting(e -> e.getEvent().getClass().getSimpleName())
                .containsExactly("RunStarted", "RunFinished");
        RunStarted started = (RunStarted) runs.get(0).getEvent();
        assertThat(started.getNumPrompts()).isEqualTo(50);
        assertThat(started.getMaxConcurrency()).isEqualTo(8);
        assertThat(started.getScheduleStartEpochNs()).isEqualTo(result.scheduleStartEpochNs());
        RunFinished finished = (RunFinished) runs.get(1).getEvent();
        assertThat(finished.getRequestsStarted()).isEqualTo(50);
        assertThat(finished.getRequestsSucceeded()).isEqualTo(50);
        assertThat(finished.getChunkEvents()).isEqualTo(expectedChunks);
        assertThat(finished.getRecordsNotDelivered()).isZero();
    }

    @Test
    void warmUpsReachTheServerButNoTopicAndEachRequestNamesItsAdapter() throws Exception {
        Set<String> requestIdsSeen = ConcurrentHashMap.newKeySet();
        Topics topics = topics("warm.");
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        LoadSettings base = settings("run-warm", URI.create("http://unused:1"), 4, 2);
        LoadResult result;
        try (SimulatorServer server =
                        SimulatorServer.start(SimulatorConfig.deterministic(Duration.ofMillis(5), Duration.ofMillis(1))
                                .withSendListener(
                                        (requestId, seq, receivedNs, dueNs, sentNs) -> requestIdsSeen.add(requestId)));
                EventPublisher publisher =
                        EventPublisher.open(PublisherSettings.of(platform.bootstrapServers()), topics)) {
            LoadSettings.Workload w = base.workload();
            LoadSettings settings = new LoadSettings(
                    base.runId(),
                    0,
                    1,
                    settings("run-warm", server.baseUri(), 4, 2).target(),
                    new LoadSettings.Workload(
                            w.dataset(),
                            w.tokenizerId(),
                            w.numPrompts(),
                            null,
                            w.arrivals(),
                            w.maxConcurrency(),
                            3,
                            new LoraAssignment(List.of("lora-a", "lora-b"), LoraAssignment.Strategy.ROUND_ROBIN),
                            SessionOptions.DEFAULTS,
                            null),
                    base.reporting(),
                    base.requestIdPrefix(),
                    base.readinessTimeout(),
                    true,
                    false);
            result = new LoadGenerator(publisher, tokenizer, new PrintStream(console, true, StandardCharsets.UTF_8))
                    .run(settings);
        }

        assertThat(console.toString(StandardCharsets.UTF_8))
                .containsSubsequence(
                        "Starting initial single prompt test run...\n",
                        "Initial test run completed.\n",
                        "Warming up with 3 requests...\n",
                        "Warmup run completed.\n",
                        "Starting main benchmark run...\n",
                        "Traffic request rate: 100.0\n");
        assertThat(requestIdsSeen).contains("it-warmup-0", "it-warmup-1", "it-warmup-2", "it-test");
        assertThat(result.started()).isEqualTo(4);
        List<RequestEvent> requests = readAll(topics.requests(), 8);
        assertThat(requests)
                .hasSize(8)
                .allSatisfy(e -> assertThat(e.getRequestId()).isIn("it-0", "it-1", "it-2", "it-3"));
        long announced = requests.stream()
                .filter(e -> e.getEvent() instanceof RequestFinished)
                .mapToLong(e -> ((RequestFinished) e.getEvent()).getChunkEvents())
                .sum();
        List<Chunk> chunks = readChunks(topics, announced);
        assertThat(chunks).as("only the timed requests' chunks").hasSize((int) announced);
        assertThat(requests.stream()
                        .filter(e -> e.getEvent() instanceof RequestFinished)
                        .collect(Collectors.toMap(
                                RequestEvent::getRequestIndex, e -> ((RequestFinished) e.getEvent()).getModel())))
                .as("round-robin over the adapters by request index")
                .isEqualTo(Map.of(0, "lora-a", 1, "lora-b", 2, "lora-a", 3, "lora-b"));
        assertThat(chunks)
                .extracting(Chunk::getRequestIndex)
                .allSatisfy(i -> assertThat(i).isBetween(0, 3));
    }

    @Test
    void aSelfSignedHttpsServerStopsTheRunAtOnceNamingInsecureAndRunsWithIt() throws Exception {
        Topics topics = topics("tls.");
        try (SimulatorServer server =
                        SimulatorServer.start(SimulatorConfig.deterministic(Duration.ofMillis(2), Duration.ofMillis(1))
                                .withTls(true));
                EventPublisher publisher =
                        EventPublisher.open(PublisherSettings.of(platform.bootstrapServers()), topics)) {
            LoadSettings checked = settings("run-tls", server.baseUri(), 3, null);
            long startNs = System.nanoTime();
            assertThatThrownBy(() -> new LoadGenerator(
                                    publisher, tokenizer, new PrintStream(OutputStream.nullOutputStream()))
                            .run(checked))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("presented a certificate this machine does not trust")
                    .hasMessageContaining("pass --insecure");
            assertThat(Duration.ofNanos(System.nanoTime() - startNs))
                    .as("no waiting for the readiness timeout")
                    .isLessThan(Duration.ofSeconds(5));

            LoadSettings.Target t = checked.target();
            LoadSettings insecure = new LoadSettings(
                    "run-tls-insecure",
                    0,
                    1,
                    new LoadSettings.Target(
                            t.backend(), t.baseUrl(), t.endpoint(), t.model(), null, null, Map.of(), null, true),
                    checked.workload(),
                    checked.reporting(),
                    checked.requestIdPrefix(),
                    checked.readinessTimeout(),
                    true,
                    false);
            LoadResult result = new LoadGenerator(
                            publisher, tokenizer, new PrintStream(OutputStream.nullOutputStream()))
                    .run(insecure);
            assertThat(result.succeeded()).isEqualTo(3);
        }
    }

    @Test
    void serverErrorsBecomeFailedRequestsWithTheirReasons() throws Exception {
        Topics topics = topics("fail.");
        LoadResult result;
        HttpServer server = failingEveryFifthRequest();
        try (EventPublisher publisher =
                EventPublisher.open(PublisherSettings.of(platform.bootstrapServers()), topics)) {
            URI base = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
            result = new LoadGenerator(publisher, tokenizer, new PrintStream(OutputStream.nullOutputStream()))
                    .run(settings("run-fail", base, 20, null));
        } finally {
            server.stop(0);
        }

        assertThat(result.started()).isEqualTo(20);
        assertThat(result.failed()).as("indices 0, 5, 10, 15").isEqualTo(4);
        assertThat(result.succeeded()).isEqualTo(16);
        assertThat(result.failureReasons())
                .containsExactly(Map.entry("HTTP 500: {\"error\": {\"message\": \"out of memory\"}}", 4L));
        List<RequestFinished> failed = readAll(topics.requests(), 40).stream()
                .filter(e -> e.getEvent() instanceof RequestFinished f && !f.getSuccess())
                .map(e -> (RequestFinished) e.getEvent())
                .toList();
        assertThat(failed).hasSize(4).allSatisfy(f -> {
            assertThat(f.getHttpStatus()).isEqualTo(500);
            assertThat(f.getError()).contains("out of memory");
        });
        RunFinished finished = (RunFinished) readAll(topics.runs(), 2).get(1).getEvent();
        assertThat(finished.getRequestsFailed()).isEqualTo(4);
    }

    @Test
    void aStopEndsSendingAtOnceAndLetsTheRequestsInFlightFinish() throws Exception {
        Topics topics = topics("stop.");
        LoadResult result = stoppedRun(topics, "run-stop", Duration.ofSeconds(30));

        // 100 requests/s: a stop at request 2's first event leaves a few sent, far from the 50 planned.
        assertThat(result.interrupted()).isTrue();
        assertThat(result.started()).isBetween(3L, 15L);
        assertThat(result.succeeded()).as("each drained to its end").isEqualTo(result.started());
        List<RunEvent> runs = readAll(topics.runs(), 2);
        RunFinished finished = (RunFinished) runs.get(1).getEvent();
        assertThat(finished.getInterrupted()).isTrue();
        assertThat(finished.getRequestsStarted()).isEqualTo(result.started());
        assertThat(finished.getRequestsSucceeded()).isEqualTo(result.started());
        assertThat(readAll(topics.requests(), 2 * result.started())).hasSize((int) (2 * result.started()));
    }

    @Test
    void aStopWithNoDrainTimeCancelsTheRequestsInFlightAsCountedFailures() throws Exception {
        Topics topics = topics("stop-now.");
        LoadResult result = stoppedRun(topics, "run-stop-now", Duration.ZERO);

        assertThat(result.interrupted()).isTrue();
        assertThat(result.succeeded()).isZero();
        assertThat(result.failed()).isEqualTo(result.started()).isPositive();
        assertThat(result.failureReasons())
                .containsOnlyKeys("the HTTP client was closed while the request was in flight");
        RunFinished finished = (RunFinished) readAll(topics.runs(), 2).get(1).getEvent();
        assertThat(finished.getInterrupted()).isTrue();
        assertThat(finished.getRequestsFailed()).isEqualTo(result.started());
    }

    /** 50 requests of 6 events 500 ms apart (3 s each), stopped when request 2's first event is sent. */
    private static LoadResult stoppedRun(Topics topics, String runId, Duration drain) throws Exception {
        CompletableFuture<Void> stop = new CompletableFuture<>();
        try (SimulatorServer server = SimulatorServer.start(
                        SimulatorConfig.deterministic(Duration.ofMillis(20), Duration.ofMillis(500))
                                .withSendListener((requestId, seq, receivedNs, dueNs, sentNs) -> {
                                    if (requestId.equals("it-2")) {
                                        stop.complete(null);
                                    }
                                }));
                EventPublisher publisher =
                        EventPublisher.open(PublisherSettings.of(platform.bootstrapServers()), topics)) {
            return new LoadGenerator(
                            publisher,
                            tokenizer,
                            new PrintStream(OutputStream.nullOutputStream()),
                            GeneratorOptions.defaults().withStop(stop).withDrainTimeout(drain))
                    .run(settings(runId, server.baseUri(), 50, null));
        }
    }

    @Test
    void aServerThatNeverAnswersStopsTheRunWithTheUrlInTheMessage() throws Exception {
        int freePort;
        try (ServerSocket socket = new ServerSocket(0)) {
            freePort = socket.getLocalPort();
        }
        Topics topics = topics("down.");
        LoadSettings base = settings("run-down", URI.create("http://127.0.0.1:" + freePort), 5, null);
        LoadSettings settings = new LoadSettings(
                base.runId(),
                0,
                1,
                base.target(),
                base.workload(),
                base.reporting(),
                base.requestIdPrefix(),
                Duration.ofSeconds(1),
                true,
                false);
        try (EventPublisher publisher =
                EventPublisher.open(PublisherSettings.of(platform.bootstrapServers()), topics)) {
            assertThatThrownBy(() -> new LoadGenerator(
                                    publisher, tokenizer, new PrintStream(OutputStream.nullOutputStream()))
                            .run(settings))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith(
                            "the server at http://127.0.0.1:" + freePort + "/health was not ready within 1 s");
        }
    }

    private static LoadSettings settings(String runId, URI baseUrl, int numPrompts, Integer maxConcurrency) {
        LoadSettings.Target target = new LoadSettings.Target(
                "vllm", baseUrl, "/v1/completions", SimulatorConfig.DEFAULT_MODEL, null, null, Map.of(), null, false);
        DatasetOptions dataset = new DatasetOptions(
                "random",
                null,
                PromptStyle.COMPLETION,
                new DatasetOptions.Random(32, 6, 0.5, 0),
                DatasetOptions.Sonnet.DEFAULTS);
        LoadSettings.Workload workload = new LoadSettings.Workload(
                dataset,
                tokenizer.id(),
                numPrompts,
                null,
                ArrivalSettings.constant(100.0, 1.0, 7),
                maxConcurrency,
                0,
                null,
                SessionOptions.DEFAULTS,
                null);
        return new LoadSettings(
                runId,
                0,
                1,
                target,
                workload,
                new LoadSettings.Reporting(
                        "ttft,tpot,itl",
                        "99",
                        null,
                        "{\"num_prompts\": " + numPrompts + "}",
                        List.of("ttft", "tpot", "itl"),
                        List.of(99.0),
                        Map.of()),
                "it-",
                Duration.ofSeconds(10),
                false,
                false);
    }

    private static Topics topics(String prefix) throws Exception {
        Topics topics = Topics.create(
                prefix,
                new SchemaRegistryClient(
                        SchemaRegistrySettings.of(platform.registryUrl().toString())),
                true);
        try (Admin admin =
                Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, platform.bootstrapServers()))) {
            admin.createTopics(List.of(
                            new NewTopic(topics.runs().name(), 1, (short) 1),
                            new NewTopic(topics.requests().name(), 3, (short) 1),
                            new NewTopic(topics.chunks().name(), 3, (short) 1),
                            new NewTopic(topics.chunkBatches().name(), 3, (short) 1)))
                    .all()
                    .get();
        }
        return topics;
    }

    /** The streamed events, from their chunk-batch records (the publisher's default), each batch as its chunks. */
    private static List<Chunk> readChunks(Topics topics, long expected) {
        return readAll(topics.chunkBatches(), expected, ChunkBatches::expand);
    }

    /** Every record of the topic, decoded; polls until {@code expected} arrived or 30 s passed. */
    private static <V> List<V> readAll(TopicSpec<V> topic, long expected) {
        return readAll(topic, expected, List::of);
    }

    /** Every record of the topic, decoded and expanded into values; polls until {@code expected} values arrived or 30 s passed. */
    private static <V, T> List<T> readAll(TopicSpec<V> topic, long expected, Function<V, List<T>> expand) {
        Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, platform.bootstrapServers());
        List<T> values = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic.name()).stream()
                    .map(p -> new TopicPartition(topic.name(), p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadlineNs = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (values.size() < expected && System.nanoTime() < deadlineNs) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    values.addAll(expand.apply(
                            topic.valueSerde().deserializer().deserialize(record.topic(), record.value())));
                }
            }
            // anything beyond the expected count would be a duplicate or a stray record
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                values.addAll(
                        expand.apply(topic.valueSerde().deserializer().deserialize(record.topic(), record.value())));
            }
        }
        return values;
    }

    /**
     * A small OpenAI-completions server: 500 with a vLLM-style error body for every request whose
     * x-request-id ends in a multiple of 5, else three streamed tokens, usage and [DONE].
     */
    private static HttpServer failingEveryFifthRequest() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/health", exchange -> respond(exchange, 200, ""));
        server.createContext("/v1/completions", exchange -> {
            exchange.getRequestBody().readAllBytes();
            String requestId = exchange.getRequestHeaders().getFirst("x-request-id");
            String digits = requestId.replaceAll("\\D", "");
            if (!digits.isEmpty() && Integer.parseInt(digits) % 5 == 0) {
                respond(exchange, 500, "{\"error\": {\"message\": \"out of memory\"}}");
                return;
            }
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream body = exchange.getResponseBody()) {
                for (String token : List.of("a", "b", "c")) {
                    body.write(("data: {\"choices\": [{\"index\": 0, \"text\": \"" + token + "\"}]}\n\n")
                            .getBytes(StandardCharsets.UTF_8));
                    body.flush();
                }
                body.write(("data: {\"choices\": [], \"usage\": {\"prompt_tokens\": 32, \"completion_tokens\": 3}}\n\n"
                                + "data: [DONE]\n\n")
                        .getBytes(StandardCharsets.UTF_8));
            }
        });
        server.start();
        return server;
    }

    private static void respond(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
