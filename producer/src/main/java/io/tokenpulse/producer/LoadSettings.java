package io.tokenpulse.producer;

import io.tokenpulse.producer.backend.BackendSettings;
import io.tokenpulse.producer.backend.Backends;
import io.tokenpulse.producer.dataset.DatasetOptions;
import io.tokenpulse.producer.dataset.Datasets;
import io.tokenpulse.producer.dataset.PromptStyle;
import io.tokenpulse.producer.schedule.ArrivalSettings;
import io.tokenpulse.producer.session.SessionOptions;
import io.tokenpulse.schemas.task.PoolingBackends;
import java.net.URI;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything one load-generator shard needs for one run of {@link LoadGenerator#run}. Every
 * record here checks its values in its constructor and rejects impossible ones with an
 * {@link IllegalArgumentException} whose one-line message names the flag to change.
 *
 * <p><b>Sharding.</b> Several load generators can drive one run: each gets the same run id, the
 * same options and seed, and its own {@code --shard-index k} of {@code --shard-count n}. Every
 * shard samples the same dataset and draws the same arrival schedule, and shard {@code k} sends
 * exactly the requests whose dataset index {@code i} has {@code i % n == k}, at that request's
 * own offset. The request index (record keys, {@code x-request-id}, {@code --save-detailed}
 * position) stays the dataset index, so the shards together send what one generator would, and
 * their records never collide. Each shard's offsets count from its own schedule start, which
 * its RunStarted record anchors to the wall clock.
 *
 * @param runId identifies the run in every record; the same for every shard ({@code --run-id})
 * @param shardIndex this shard, {@code 0 <= shardIndex < shardCount} ({@code --shard-index})
 * @param shardCount load generators taking part ({@code --shard-count})
 * @param target where requests go and what they carry
 * @param workload what is sent and when
 * @param reporting what RunStarted records for the report
 * @param requestIdPrefix {@code --request-id-prefix}: a request's {@code x-request-id} is this
 *     prefix followed by its dataset index; may be empty, not null
 * @param readinessTimeout how long to poll {@code <base url>/health} for a 200 before giving up
 * @param disableProgress {@code --disable-tqdm}: no progress bar
 * @param keepGeneratedText put the generated text into RequestFinished ({@code --save-detailed}
 *     needs it); off, the records stay small
 */
public record LoadSettings(
        String runId,
        int shardIndex,
        int shardCount,
        Target target,
        Workload workload,
        Reporting reporting,
        String requestIdPrefix,
        Duration readinessTimeout,
        boolean disableProgress,
        boolean keepGeneratedText) {

    /** vLLM's {@code --request-id-prefix} default. */
    public static final String DEFAULT_REQUEST_ID_PREFIX = "benchmark-serving";
    /** vLLM waits up to 600 s for the endpoint ({@code --ready-check-timeout-sec}). */
    public static final Duration DEFAULT_READINESS_TIMEOUT = Duration.ofSeconds(600);

    public LoadSettings {
        if (runId == null || runId.isBlank()) {
            throw new IllegalArgumentException("--run-id must not be empty");
        }
        if (shardCount < 1) {
            throw new IllegalArgumentException("--shard-count must be >= 1, got " + shardCount);
        }
        if (shardIndex < 0 || shardIndex >= shardCount) {
            throw new IllegalArgumentException("--shard-index must be in [0, " + (shardCount - 1)
                    + "] for --shard-count " + shardCount + ", got " + shardIndex);
        }
        if (target == null || workload == null || reporting == null) {
            throw new IllegalArgumentException("target, workload and reporting are required");
        }
        if (requestIdPrefix == null) {
            throw new IllegalArgumentException("--request-id-prefix must not be null; use \"\" for none");
        }
        if (readinessTimeout == null || readinessTimeout.isNegative() || readinessTimeout.isZero()) {
            throw new IllegalArgumentException("the readiness timeout must be > 0, got " + readinessTimeout);
        }
        if (workload.lora() != null && Set.of("tgi", "tensorrt-llm").contains(target.backend())) {
            throw new IllegalArgumentException("backend " + target.backend()
                    + " sends no model name, so --lora-modules cannot choose adapters; use an OpenAI-compatible"
                    + " backend or remove --lora-modules");
        }
        // vLLM sends the list to a generation API, which refuses it at the test request
        DatasetOptions dataset = workload.dataset();
        if (Datasets.sendsTextLists(dataset) && !PoolingBackends.contains(target.backend())) {
            String flags = "--dataset-name " + dataset.name()
                    + (dataset.name().equals("random")
                            ? " --random-batch-size " + dataset.randomBatch().batchSize()
                            : "");
            throw new IllegalArgumentException(flags + " sends a list of texts per request, which only a pooling"
                    + " backend takes; use --backend vllm-rerank or openai-embeddings (or vllm-score), got "
                    + target.backend());
        }
        if (workload.dataset().promptStyle() != target.promptStyle()) {
            throw new IllegalArgumentException("backend " + target.backend() + " takes "
                    + target.promptStyle().name().toLowerCase() + " prompts but the dataset was built for "
                    + workload.dataset().promptStyle().name().toLowerCase() + " prompts");
        }
    }

    /** The {@code x-request-id} of the request with dataset index {@code index}. */
    public String requestId(int index) {
        return requestIdPrefix + index;
    }

    /**
     * Where requests go and what every request carries.
     *
     * @param backend {@code --backend}; must be a supported backend name
     * @param baseUrl {@code --base-url}, or {@code http://<--host>:<--port>}; http or https
     * @param endpoint {@code --endpoint}, the path appended to the base URL (vLLM:
     *     {@code f"{base_url}{endpoint}"})
     * @param model {@code --model}, recorded as the run's model id
     * @param servedModelName {@code --served-model-name}, sent as the payload's model when given;
     *     else null
     * @param apiKey {@code $OPENAI_API_KEY}, sent as a bearer token; null for none. Never part of
     *     {@link #toString()}
     * @param extraHeaders {@code --header K=V}, added to every request; never null after
     *     construction
     * @param sampling {@code --temperature/--top-p/--top-k/--min-p/--logprobs/--ignore-eos};
     *     null means none given
     * @param insecure {@code --insecure}: an https server's certificate and host name are not checked
     */
    public record Target(
            String backend,
            URI baseUrl,
            String endpoint,
            String model,
            String servedModelName,
            String apiKey,
            Map<String, String> extraHeaders,
            BackendSettings.Sampling sampling,
            boolean insecure) {

        public Target {
            Backends.get(backend); // an unknown or unsupported name fails here, listing the known ones
            if (baseUrl == null
                    || baseUrl.getHost() == null
                    || !("http".equalsIgnoreCase(baseUrl.getScheme())
                            || "https".equalsIgnoreCase(baseUrl.getScheme()))) {
                throw new IllegalArgumentException(
                        "--base-url must be an http://host:port or https://host:port URL, got " + baseUrl);
            }
            if (endpoint == null || !endpoint.startsWith("/")) {
                throw new IllegalArgumentException("--endpoint must be a path starting with '/', got " + endpoint);
            }
            if (model == null || model.isBlank()) {
                throw new IllegalArgumentException("--model must not be empty");
            }
            if (servedModelName != null && servedModelName.isBlank()) {
                throw new IllegalArgumentException("--served-model-name must not be blank");
            }
            extraHeaders =
                    extraHeaders == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(extraHeaders));
            if (sampling == null) {
                sampling = BackendSettings.Sampling.GREEDY;
            }
            // The backend checks the endpoint path and the options it cannot take, now rather
            // than at the first request.
            Backends.get(backend)
                    .check(backendSettings(baseUrl, endpoint, model, servedModelName, apiKey, extraHeaders, sampling));
        }

        /** The URL requests are POSTed to: base URL followed by the endpoint path. */
        public URI endpointUrl() {
            return URI.create(stripSlash(baseUrl) + endpoint);
        }

        /** The URL polled before the run: {@code <base url>/health}, as vLLM checks it. */
        public URI healthUrl() {
            return URI.create(stripSlash(baseUrl) + "/health");
        }

        /** What the backend needs to build requests. */
        public BackendSettings backendSettings() {
            return backendSettings(baseUrl, endpoint, model, servedModelName, apiKey, extraHeaders, sampling);
        }

        /**
         * The prompt form this backend takes, for building {@link DatasetOptions}: chat messages for
         * {@code openai-chat}, text for the completions backends (vLLM's rule). The Responses and
         * Messages APIs take messages too: their server applies the chat template, so the dataset
         * must not.
         */
        public PromptStyle promptStyle() {
            return switch (backend) {
                case "openai-chat", "openai-responses", "anthropic-messages" -> PromptStyle.CHAT;
                case "openai-audio" -> PromptStyle.AUDIO;
                default -> PromptStyle.COMPLETION;
            };
        }

        private static BackendSettings backendSettings(
                URI baseUrl,
                String endpoint,
                String model,
                String served,
                String apiKey,
                Map<String, String> headers,
                BackendSettings.Sampling sampling) {
            return new BackendSettings(
                    URI.create(stripSlash(baseUrl) + endpoint),
                    served == null ? model : served,
                    apiKey,
                    headers,
                    sampling);
        }

        private static String stripSlash(URI uri) {
            String s = uri.toString();
            return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
        }

        @Override
        public String toString() {
            return "Target[backend=" + backend + ", endpointUrl=" + endpointUrl() + ", model=" + model
                    + ", servedModelName=" + servedModelName
                    + ", apiKey=" + (apiKey == null || apiKey.isBlank() ? "none" : "***")
                    + ", extraHeaders=" + extraHeaders.keySet() + ", sampling=" + sampling
                    + (insecure ? ", insecure" : "") + "]";
        }
    }

    /**
     * What is sent and when.
     *
     * @param dataset the dataset flags; its prompt style must suit the backend
     *     ({@link Target#promptStyle()})
     * @param tokenizerId {@code --tokenizer} as given (or the model when not given), recorded in
     *     RunStarted
     * @param numPrompts {@code --num-prompts}: requests of the whole run (all shards). In duration
     *     mode, the number of distinct prompts sampled and cycled through: request {@code i} sends
     *     prompt {@code i % numPrompts}, so memory stays bounded however long the run
     * @param durationMinutes {@code --duration-minutes}: send on the schedule for this long instead
     *     of a fixed count; null for a fixed count
     * @param arrivals {@code --request-rate}, {@code --burstiness}, the ramp-up flags and {@code --seed}; the seed also seeds
     *     the dataset sample
     * @param maxConcurrency {@code --max-concurrency}, null for unlimited
     * @param numWarmups {@code --num-warmups}: copies of the initial test request sent after it and
     *     before the timed run (vLLM's warm-up), never published or counted; {@code >= 0}
     * @param lora {@code --lora-modules} and {@code --lora-assignment}: the adapter each request names
     *     as its model instead of the target's; null for none
     * @param sessions how multi-turn sessions are played ({@code --think-time-ms},
     *     {@code --multi-turn-history}, {@code --session-header}); unused by single-request datasets
     * @param probeRequestRate {@code --probe-request-rate}: single-token probes per second sent outside
     *     {@code --max-concurrency} while the run sends ({@link ProbeSender}); null for none
     */
    public record Workload(
            DatasetOptions dataset,
            String tokenizerId,
            int numPrompts,
            Double durationMinutes,
            ArrivalSettings arrivals,
            Integer maxConcurrency,
            int numWarmups,
            LoraAssignment lora,
            SessionOptions sessions,
            Double probeRequestRate) {

        public Workload {
            if (dataset == null || arrivals == null || sessions == null) {
                throw new IllegalArgumentException("dataset options, arrival and session settings are required");
            }
            if (tokenizerId == null || tokenizerId.isBlank()) {
                throw new IllegalArgumentException("--tokenizer must not be empty");
            }
            if (numPrompts < 1) {
                throw new IllegalArgumentException("--num-prompts must be >= 1, got " + numPrompts);
            }
            if (durationMinutes != null && !(durationMinutes > 0 && Double.isFinite(durationMinutes))) {
                throw new IllegalArgumentException(
                        "--duration-minutes must be a finite number > 0, got " + durationMinutes);
            }
            if (maxConcurrency != null && maxConcurrency < 1) {
                throw new IllegalArgumentException("--max-concurrency must be >= 1, got " + maxConcurrency);
            }
            if (probeRequestRate != null && !(probeRequestRate > 0 && probeRequestRate <= ProbeSender.MAX_RATE)) {
                throw new IllegalArgumentException("--probe-request-rate must be a number of probes per second in (0, "
                        + (int) ProbeSender.MAX_RATE + "], got " + probeRequestRate);
            }
            if (durationMinutes != null && Datasets.bringsOwnTimes(dataset.name())) {
                throw new IllegalArgumentException("--duration-minutes cannot be combined with --dataset-name "
                        + dataset.name() + ": the trace's times decide when requests are sent; give --num-prompts"
                        + " to send its first N requests");
            }
            if (numWarmups < 0) {
                throw new IllegalArgumentException("--num-warmups must be >= 0, got " + numWarmups);
            }
            if (durationMinutes != null
                    && arrivals.rampUp() == null
                    && Double.isInfinite(arrivals.requestRate())
                    && maxConcurrency == null) {
                throw new IllegalArgumentException("--duration-minutes with --request-rate inf would send"
                        + " without pause; give --max-concurrency or a finite --request-rate");
            }
        }

        /**
         * The model each request names, by request index ({@code i % numPrompts}): the adapters' draw,
         * or null when every request names the target's model.
         */
        String[] requestModels() {
            return lora == null ? null : lora.assign(numPrompts, arrivals.seed());
        }

        /** The duration in ns in duration mode, else 0. */
        long durationNs() {
            return durationMinutes == null ? 0 : Math.round(durationMinutes * 60e9);
        }
    }

    /**
     * What RunStarted carries for the report: the options as the user gave them (for display) and as
     * parsed once by the command (what the aggregator and replay score with).
     *
     * @param percentileMetrics {@code --percentile-metrics}, e.g. {@code ttft,tpot,itl}
     * @param metricPercentiles {@code --metric-percentiles}, e.g. {@code 99}
     * @param goodput {@code --goodput} SLOs joined by spaces ({@code ttft:100 e2el:2000}), or null
     * @param configJson every option of the run as a JSON object, secrets already redacted
     * @param selectedMetrics the parsed metric keys, in print order
     * @param selectedPercentiles the parsed percentiles
     * @param goodputSloMs the parsed SLOs, metric key to ms; empty without goodput
     */
    public record Reporting(
            String percentileMetrics,
            String metricPercentiles,
            String goodput,
            String configJson,
            List<String> selectedMetrics,
            List<Double> selectedPercentiles,
            Map<String, Double> goodputSloMs) {

        public Reporting {
            selectedMetrics = List.copyOf(selectedMetrics);
            selectedPercentiles = List.copyOf(selectedPercentiles);
            goodputSloMs = Collections.unmodifiableMap(new LinkedHashMap<>(goodputSloMs));
            if (selectedMetrics.isEmpty() || selectedPercentiles.isEmpty()) {
                throw new IllegalArgumentException(
                        "the parsed --percentile-metrics and --metric-percentiles are empty");
            }
            if (percentileMetrics == null || percentileMetrics.isBlank()) {
                throw new IllegalArgumentException("--percentile-metrics must not be empty");
            }
            if (metricPercentiles == null || metricPercentiles.isBlank()) {
                throw new IllegalArgumentException("--metric-percentiles must not be empty");
            }
            if (configJson == null || !configJson.strip().startsWith("{")) {
                throw new IllegalArgumentException("the run configuration must be a JSON object");
            }
        }
    }
}
