package io.tokenpulse.cli;

import io.tokenpulse.aggregator.metrics.GoodputSlo;
import io.tokenpulse.aggregator.metrics.MetricPercentiles;
import io.tokenpulse.aggregator.metrics.PercentileMetrics;
import io.tokenpulse.producer.LoadSettings;
import io.tokenpulse.producer.backend.BackendSettings;
import io.tokenpulse.producer.backend.Backends;
import io.tokenpulse.producer.dataset.DatasetOptions;
import io.tokenpulse.producer.dataset.Datasets;
import io.tokenpulse.producer.schedule.ArrivalSettings;
import io.tokenpulse.simulator.SimulatorConfig;
import io.tokenpulse.simulator.SimulatorServer;
import io.tokenpulse.simulator.faults.FaultPlan;
import io.tokenpulse.tokenizers.Tokenizer;
import io.tokenpulse.tokenizers.TokenizerLoader;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tokenpulse bench}: vLLM's {@code benchmark_serving.py} with every flag of its {@code --help}
 * (same names, defaults and meaning), plus the pipeline's own options. Options are declared in
 * vLLM's order because the Namespace line prints them in declaration order.
 */
@Command(name = "bench", sortOptions = false, mixinStandardHelpOptions = true,
    description = "Benchmark the online serving throughput (vLLM's benchmark_serving.py flags).")
final class BenchCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--backend", defaultValue = "vllm", description = "One of: ${COMPLETION-CANDIDATES}. "
      + "openai-audio sends no prompt text but a synthetic 5 s WAV (440 Hz tone, 16 kHz) with every prompt of any text dataset, e.g. random.",
      completionCandidates = BackendNames.class)
  String backend;

  @Option(names = "--base-url", description = "Server or API base url if not using http host and port.")
  String baseUrl;

  @Option(names = "--host", defaultValue = "127.0.0.1") String host;

  @Option(names = "--port", defaultValue = "8000") int port;

  @Option(names = "--endpoint", defaultValue = "/v1/completions", description = "API endpoint (default: ${DEFAULT-VALUE}).")
  String endpoint;

  @Option(names = "--dataset-name", defaultValue = "sharegpt",
      description = "Name of the dataset to benchmark on: sharegpt, burstgpt, sonnet, random, hf, custom (default: ${DEFAULT-VALUE}).")
  String datasetName;

  @Option(names = "--dataset-path", description = "Path to the sharegpt (JSON), burstgpt (CSV), sonnet (text) or custom (JSONL) dataset.")
  String datasetPath;

  @Option(names = "--max-concurrency", description = "Maximum number of concurrent requests.")
  Integer maxConcurrency;

  @Option(names = "--model", description = "Name of the model (required unless --simulate).")
  String model;

  @Option(names = "--tokenizer", description = "Name or path of the tokenizer, if not using the default tokenizer.")
  String tokenizer;

  @Option(names = "--use-beam-search") boolean useBeamSearch;

  @Option(names = "--num-prompts", defaultValue = "1000", description = "Number of prompts to process (default: ${DEFAULT-VALUE}).")
  int numPrompts;

  @Option(names = "--duration-minutes",
      description = "Keep sending on the schedule for this many minutes instead of --num-prompts.")
  Double durationMinutes;

  @Option(names = "--logprobs", description = "Number of logprobs-per-token to compute & return as part of the request.")
  Integer logprobs;

  @Option(names = "--request-rate", defaultValue = "inf",
      description = "Number of requests per second; inf sends all requests at time 0 (default: ${DEFAULT-VALUE}).")
  double requestRate;

  @Option(names = "--burstiness", defaultValue = "1.0",
      description = "Burstiness factor of the request generation (1 = Poisson process, gamma otherwise) (default: ${DEFAULT-VALUE}).")
  double burstiness;

  @Option(names = "--seed", defaultValue = "0") long seed;

  @Option(names = "--trust-remote-code") boolean trustRemoteCode;

  @Option(names = "--disable-tqdm", description = "Disable the progress bar.") boolean disableTqdm;

  @Option(names = "--profile", description = "Use Torch Profiler: POST /start_profile before the run (before the initial test request) and /stop_profile after the report. The endpoint must be launched with VLLM_TORCH_PROFILER_DIR to enable profiler.")
  boolean profile;

  // Declared where vLLM declares them: the Namespace line prints options in this order.
  @Mixin ResultFileOptions resultFile;

  @Option(names = "--ignore-eos", description = "Set ignore_eos flag when sending the benchmark request.")
  boolean ignoreEos;

  @Option(names = "--percentile-metrics", defaultValue = "ttft,tpot,itl",
      description = "Comma-separated metrics to report percentiles for: ttft, tpot, itl, e2el, token_latency (default: ${DEFAULT-VALUE}).")
  String percentileMetrics;

  @Option(names = "--metric-percentiles", defaultValue = "99",
      description = "Comma-separated percentiles for the selected metrics (default: ${DEFAULT-VALUE}).")
  String metricPercentiles;

  @Option(names = "--goodput", arity = "1..*", paramLabel = "KEY:VALUE",
      description = "Service level objectives for goodput as KEY:VALUE pairs in ms; keys ttft, tpot, e2el.")
  List<String> goodput;

  @Option(names = "--custom-output-len", defaultValue = "256",
      description = "Output tokens of every custom dataset request; -1 takes each line's output_tokens (default: ${DEFAULT-VALUE}).")
  int customOutputLen;

  // current vLLM's spelling is --skip-chat-template; the longest name is the Namespace key.
  @Option(names = {"--custom-skip-chat-template", "--skip-chat-template"},
      description = "Send and count custom dataset prompts as written, without the chat template.")
  boolean customSkipChatTemplate;

  @Option(names = "--sonnet-input-len", defaultValue = "550") int sonnetInputLen;
  @Option(names = "--sonnet-output-len", defaultValue = "150") int sonnetOutputLen;
  @Option(names = "--sonnet-prefix-len", defaultValue = "200") int sonnetPrefixLen;
  @Option(names = "--sharegpt-output-len",
      description = "Output tokens of every sharegpt request instead of the conversation's second turn's length.")
  Integer sharegptOutputLen;

  @Option(names = "--random-input-len", defaultValue = "1024") int randomInputLen;
  @Option(names = "--random-output-len", defaultValue = "128") int randomOutputLen;
  @Option(names = "--random-range-ratio", defaultValue = "0.0") double randomRangeRatio;
  @Option(names = "--random-prefix-len", defaultValue = "0") int randomPrefixLen;
  @Option(names = "--hf-subset") String hfSubset;
  @Option(names = "--hf-split") String hfSplit;
  @Option(names = "--hf-output-len") Integer hfOutputLen;
  @Option(names = "--top-p") Double topP;
  @Option(names = "--top-k") Integer topK;
  @Option(names = "--min-p") Double minP;
  @Option(names = "--temperature") Double temperature;

  @Option(names = "--tokenizer-mode", defaultValue = "auto", description = "auto, slow, mistral or custom (default: ${DEFAULT-VALUE}).")
  String tokenizerMode;

  @Option(names = "--served-model-name", description = "The model name used in the API (default: --model).")
  String servedModelName;

  @Option(names = "--lora-modules", arity = "1..*", description = "LoRA module names; each request picks one at random.")
  List<String> loraModules;

  // Current vLLM's dataset flags, after the old client's so that its Namespace prefix stays the same.

  @Option(names = "--disable-shuffle",
      description = "Take sharegpt and custom entries in file order instead of shuffled with --seed.")
  boolean disableShuffle;

  @Option(names = "--no-oversample",
      description = "Do not oversample if the dataset has fewer samples than --num-prompts (sharegpt, custom).")
  boolean noOversample;

  // ---- TokenPulse's own options (after vLLM's, so vLLM's Namespace prefix stays the same) ----

  @Option(names = "--ramp-up-strategy", description = "linear or exponential ramp of the request rate.")
  String rampUpStrategy;

  @Option(names = "--ramp-up-start-rps") Double rampUpStartRps;
  @Option(names = "--ramp-up-end-rps") Double rampUpEndRps;

  @Option(names = "--header", paramLabel = "KEY=VALUE", description = "Extra HTTP header, repeatable.")
  Map<String, String> headers = new LinkedHashMap<>();

  @Option(names = "--request-id-prefix", defaultValue = "benchmark-serving",
      description = "Prefix of every request's x-request-id; the request's dataset index follows (default: ${DEFAULT-VALUE}).")
  String requestIdPrefix;

  @Option(names = "--run-id", description = "Identifier of the run (default: generated).") String runId;

  @Option(names = "--shard-index", defaultValue = "0", description = "This load generator's index when several share one run.")
  int shardIndex;

  @Option(names = "--shard-count", defaultValue = "1", description = "Number of load generators in the run.")
  int shardCount;

  @Option(names = "--simulate", description = "Start the built-in simulator as the target.")
  boolean simulate;

  @Option(names = "--simulate-profile", defaultValue = "default",
      description = "Simulator behaviour with --simulate: default (continuous batching calibrated to vLLM's load sweep) or deterministic (50 ms TTFT, 20 ms between tokens) (default: ${DEFAULT-VALUE}).")
  String simulateProfile;

  @Option(names = "--simulate-speedup", defaultValue = "1.0",
      description = "With --simulate: divide every simulated time by this factor (default: ${DEFAULT-VALUE}).")
  double simulateSpeedup;

  @Option(names = "--simulate-fault", paramLabel = "KIND[=VALUE][:PROB]",
      description = "With --simulate: inject a fault into each request with probability PROB (default 1), drawn per "
          + "request from --seed; repeatable. KIND: " + FaultPlan.SPEC_SYNTAX + ". The initial test request "
          + "draws too, and its failure stops the run as in vLLM. What each does to the run: docs/simulator.md.")
  List<String> simulateFaults = new ArrayList<>();

  /** One endpoint serves the aggregator's and the load generator's meters. */
  @Mixin MetricsOptions metrics;

  @Mixin KafkaOptions kafka;

  @Option(names = "--ready-check-timeout-sec", defaultValue = "600",
      description = "How long to wait for the server's /health to answer 200 before giving up, in s (vLLM's flag; default: ${DEFAULT-VALUE}).")
  int readyCheckTimeoutSec;

  @Option(names = "--summary-timeout-s", defaultValue = "120",
      description = "How long to wait for the run summary after the last response, in s (default: ${DEFAULT-VALUE}).")
  int summaryTimeoutS;

  @Option(names = "--save-chart", paramLabel = "FILE.png",
      description = "After the run, draw its window metrics (latency percentiles, throughput, request rate over time) as a PNG.")
  String saveChart;

  /** The in-process aggregator's windows (what --save-chart and the live window gauges show). */
  @Mixin WindowOptions windows;

  @Override
  public Integer call() throws Exception {
    PrintStream out = System.out;
    out.println(PythonNamespace.format(spec));
    if (!simulate && !simulateFaults.isEmpty()) {
      throw UserError.usage("--simulate-fault needs --simulate: faults are injected by the built-in simulator");
    }
    BenchRun.Plan plan;
    Tokenizer loaded;
    String modelId = model != null ? model : simulate ? SIMULATED_MODEL : null;
    if (modelId == null) {
      throw UserError.usage("--model is required (or use --simulate to benchmark the built-in simulator)");
    }
    try {
      loaded = TokenizerLoader.fromEnvironment().load(tokenizer == null ? modelId : tokenizer);
    } catch (IllegalArgumentException e) {
      throw UserError.usage(e.getMessage());
    }
    if (!(simulateSpeedup > 0)) {
      throw UserError.usage("--simulate-speedup must be > 0, got " + simulateSpeedup);
    }
    SimulatorServer started;
    try {
      started = simulate ? startSimulator(modelId, loaded) : null;
    } catch (IllegalArgumentException e) {
      throw UserError.usage(e.getMessage());
    }
    try (SimulatorServer simulator = started) {
      try {
        plan = plan(modelId, simulator, loaded);
      } catch (IllegalArgumentException e) {
        throw UserError.usage(e.getMessage());
      }
      try (Pipeline pipeline = Pipeline.connect(kafka)) {
        return BenchRun.run(plan, pipeline, loaded, out);
      }
    }
  }

  /** With --simulate and no --model: a GPT-2-family name, whose tokenizer works offline. */
  static final String SIMULATED_MODEL = "facebook/opt-125m";

  private SimulatorServer startSimulator(String modelId, Tokenizer tokenizer) throws InterruptedException {
    String served = servedModelName != null ? servedModelName : modelId;
    SimulatorConfig config = switch (simulateProfile) {
      // Calibrated to vLLM's load sweep (seed 001): TTFT grows with queueing, TPOT with the batch.
      case "default" -> SimulatorConfig.defaultProfile(served, simulateSpeedup);
      // Ground truth for the client's own error: fixed 50 ms TTFT and 20 ms between tokens.
      case "deterministic" -> SimulatorConfig.deterministic(Duration.ofMillis(50), Duration.ofMillis(20))
          .withServedModelNames(List.of(served));
      default -> throw new IllegalArgumentException(
          "--simulate-profile must be default or deterministic, got " + simulateProfile);
    };
    FaultPlan faults;
    try {
      faults = FaultPlan.parse(simulateFaults, seed);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--simulate-fault: " + e.getMessage(), e);
    }
    // The simulator counts prompt tokens with the tokenizer the load generator uses.
    return SimulatorServer.start(config.withTokenizer(tokenizer).withFaults(faults));
  }

  /** Flags of vLLM's that change what is sent but are not built yet: refused, never ignored. */
  private void rejectUnsupported() {
    if (useBeamSearch) {
      throw new IllegalArgumentException("--use-beam-search is not supported yet");
    }
    if (loraModules != null) {
      throw new IllegalArgumentException("--lora-modules is not supported yet");
    }
    if (!tokenizerMode.equals("auto")) {
      throw new IllegalArgumentException("--tokenizer-mode " + tokenizerMode + " is not supported yet; only auto");
    }
  }

  private BenchRun.Plan plan(String modelId, SimulatorServer simulator, Tokenizer loaded) {
    rejectUnsupported();
    if (durationMinutes == null && numPrompts < 1) {
      throw new IllegalArgumentException("--num-prompts must be >= 1, got " + numPrompts);
    }
    URI base = simulator != null ? simulator.baseUri()
        : URI.create(baseUrl != null ? baseUrl : "http://" + host + ":" + port);
    BackendSettings.Sampling sampling = new BackendSettings.Sampling(temperature, topP, topK, minP, logprobs, ignoreEos);
    LoadSettings.Target target = new LoadSettings.Target(backend, base, endpoint, modelId, servedModelName,
        System.getenv("OPENAI_API_KEY"), headers, sampling);
    DatasetOptions dataset = new DatasetOptions(datasetName, datasetPath == null ? null : Path.of(datasetPath),
        target.promptStyle(),
        new DatasetOptions.Random(randomInputLen, randomOutputLen, randomRangeRatio, randomPrefixLen),
        new DatasetOptions.Sonnet(sonnetInputLen, sonnetOutputLen, sonnetPrefixLen),
        new DatasetOptions.ShareGpt(sharegptOutputLen),
        new DatasetOptions.Custom(customOutputLen, customSkipChatTemplate),
        new DatasetOptions.FileSampling(disableShuffle, noOversample));
    Datasets.create(dataset, loaded); // an unknown dataset or unreadable file fails before anything starts
    ArrivalSettings arrivals = rampUpStrategy == null
        ? ArrivalSettings.constant(requestRate, burstiness, seed)
        : ArrivalSettings.rampUp(ArrivalSettings.RampUp.of(rampUpStrategy, rampUpStartRps, rampUpEndRps), burstiness, seed);
    LoadSettings.Workload workload = new LoadSettings.Workload(dataset, tokenizer == null ? modelId : tokenizer,
        numPrompts, durationMinutes, arrivals, maxConcurrency);
    // Validated here so that a typo fails before the run, not after it.
    PercentileMetrics.parse(percentileMetrics);
    MetricPercentiles.parse(metricPercentiles);
    GoodputSlo slo = goodput == null ? GoodputSlo.NONE : GoodputSlo.parse(goodput);
    LoadSettings.Reporting reporting = new LoadSettings.Reporting(percentileMetrics, metricPercentiles,
        goodput == null ? null : String.join(" ", goodput), RunConfigJson.of(spec));
    LoadSettings load = new LoadSettings(runId != null ? runId : RunIds.next(), shardIndex, shardCount, target,
        workload, reporting, requestIdPrefix, Duration.ofSeconds(readyCheckTimeoutSec), disableTqdm,
        resultFile.saveDetailed);
    RunReport.ResultOptions report = resultFile.toResultOptions();
    if (summaryTimeoutS < 1) {
      throw new IllegalArgumentException("--summary-timeout-s must be >= 1, got " + summaryTimeoutS);
    }
    metrics.validate();
    windows.validate();
    if (!kafka.embedded() && (spec.commandLine().getParseResult().hasMatchedOption(WindowOptions.SIZE)
        || spec.commandLine().getParseResult().hasMatchedOption(WindowOptions.GRACE))) {
      throw UserError.usage(WindowOptions.SIZE + " and " + WindowOptions.GRACE
          + " shape the in-process aggregator's windows; with --bootstrap-servers give them to 'tokenpulse aggregate'");
    }
    Path chart = saveChart == null ? null : ChartFile.checked("--save-chart", saveChart);
    return new BenchRun.Plan(load, slo, report, Duration.ofSeconds(summaryTimeoutS), metrics, windows, chart, profile);
  }

  /** vLLM's backend list, for the help text. */
  static final class BackendNames extends ArrayList<String> {
    BackendNames() {
      super(Backends.names());
    }
  }
}
