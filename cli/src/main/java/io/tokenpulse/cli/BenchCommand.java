package io.tokenpulse.cli;

import io.tokenpulse.cli.options.DatasetFlags;
import io.tokenpulse.cli.options.FrugalOption;
import io.tokenpulse.cli.options.KafkaOptions;
import io.tokenpulse.cli.options.MetricsOptions;
import io.tokenpulse.cli.options.PipelineNiceOption;
import io.tokenpulse.cli.options.PublisherOptions;
import io.tokenpulse.cli.options.ReportingOptions;
import io.tokenpulse.cli.options.ResultFileOptions;
import io.tokenpulse.cli.options.RunFileOptions;
import io.tokenpulse.cli.options.RunOptions;
import io.tokenpulse.cli.options.SamplingOptions;
import io.tokenpulse.cli.options.ServerMetricsOptions;
import io.tokenpulse.cli.options.SessionFlags;
import io.tokenpulse.cli.options.SimulateOptions;
import io.tokenpulse.cli.options.TargetOptions;
import io.tokenpulse.cli.options.TimeoutOptions;
import io.tokenpulse.cli.options.TrafficOptions;
import io.tokenpulse.cli.options.WindowOptions;
import io.tokenpulse.cli.report.RunOutput;
import io.tokenpulse.cli.report.RunPointers;
import io.tokenpulse.cli.report.RunReport;
import io.tokenpulse.cli.vllm.BenchNamespace;
import io.tokenpulse.cli.vllm.PythonNamespace;
import io.tokenpulse.cli.vllm.RunConfigJson;
import io.tokenpulse.producer.LoadSettings;
import io.tokenpulse.producer.dataset.Dataset;
import io.tokenpulse.producer.dataset.DatasetOptions;
import io.tokenpulse.producer.dataset.Datasets;
import io.tokenpulse.producer.schedule.ArrivalSettings;
import io.tokenpulse.producer.session.SessionOptions;
import io.tokenpulse.runner.BenchHost;
import io.tokenpulse.runner.BenchRun;
import io.tokenpulse.runner.EarlyStop;
import io.tokenpulse.runner.HostSetup;
import io.tokenpulse.runner.RunIds;
import io.tokenpulse.runner.RunOutcome;
import io.tokenpulse.runner.RunPlan;
import io.tokenpulse.runner.UserError;
import io.tokenpulse.simulator.SimulatorServer;
import io.tokenpulse.tokenizers.Tokenizer;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tokenpulse bench}: vLLM's {@code benchmark_serving.py} with every flag of its {@code --help}
 * (same names, defaults and meaning), plus the pipeline's own options. The flags live in mixins by
 * concept (target, dataset, sampling, traffic, reporting, simulator, result file, Kafka, metrics,
 * windows); {@link BenchNamespace#ORDER} keeps the Namespace line in vLLM's order. The command turns
 * them into a {@link RunPlan}, runs it with {@link BenchRun} and prints the result.
 */
@Command(
        name = "bench",
        sortOptions = false,
        // "[OPTIONS]": the groups below list the 100-odd flags, an 87-line synopsis repeated them
        abbreviateSynopsis = true,
        mixinStandardHelpOptions = true,
        description = "Benchmark the online serving throughput (vLLM's benchmark_serving.py flags).")
final class BenchCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    TargetOptions target;

    @Mixin
    DatasetFlags dataset;

    /** --think-time-ms, --multi-turn-history, --session-header: how sessions are played. */
    @Mixin
    SessionFlags sessions;

    @Mixin
    SamplingOptions sampling;

    @Mixin
    TrafficOptions traffic;

    @Mixin
    ReportingOptions reporting;

    @Mixin
    ResultFileOptions resultFile;

    @Mixin
    SimulateOptions simulate;

    /** The progress bar, the profiler, request and run ids, and the shards. */
    @Mixin
    RunOptions run;

    /** One endpoint serves the aggregator's and the load generator's meters. */
    @Mixin
    MetricsOptions metrics;

    @Mixin
    KafkaOptions kafka;

    @Mixin
    PublisherOptions publisher;

    /** Not picocli's usageHelp (it warns about a second one on a command): call() prints the usage. */
    @Option(
            names = BenchHelp.HELP_ALL,
            description = "Show every option with its description, in groups (--help describes the common ones).")
    boolean helpAll;

    /** --save-chart and --report: what is drawn and written after the run. */
    @Mixin
    RunFileOptions runFiles;

    @Mixin
    TimeoutOptions timeouts;

    @Mixin
    ServerMetricsOptions serverMetrics;

    /** The in-process aggregator's windows (what --save-chart and the live window gauges show). */
    @Mixin
    WindowOptions windows;

    @Mixin
    FrugalOption frugal;

    @Mixin
    PipelineNiceOption pipelineNice;

    @Override
    public Integer call() throws Exception {
        if (helpAll) {
            spec.commandLine().usage(spec.commandLine().getOut());
            return 0;
        }
        PrintStream out = System.out;
        target.useBackendsEndpointUnlessGiven();
        // before the Namespace line, so that it shows the percentile metrics the run reports
        reporting.defaultFor(target.backend());
        out.println(PythonNamespace.format(spec, BenchNamespace.ORDER));
        try (PreparedRun prepared = prepare(out);
                HostSetup.Started started = hostSetup().start()) {
            return runOn(prepared, started.host(), out, null).exitCode();
        }
    }

    /** The pipeline of this command's runs, its priority, and what their host serves: /metrics, OTLP and the in-process aggregator's windows. */
    HostSetup hostSetup() {
        return new HostSetup(
                kafka.settings(),
                pipelineNice.nice,
                new BenchHost.Settings(
                        metrics.metricsHost,
                        metrics.metricsPort,
                        metrics.otlpEndpoint(),
                        windows.size(),
                        windows.grace(),
                        frugal.frugal));
    }

    /**
     * Checks everything that can be checked without a pipeline (a bad option fails here with one line,
     * before anything starts), then starts the simulator when asked and builds the run's plan.
     */
    PreparedRun prepare(PrintStream out) throws InterruptedException {
        String modelId = target.modelId(simulate.simulate, out);
        Tokenizer tokenizer = target.loadTokenizer(modelId);
        var requestSampling = sampling.sampling();
        sampling.lora(); // a bad --lora-assignment fails before the simulator starts
        ArrivalSettings arrivals = traffic.arrivals();
        reporting.defaultFor(target.backend());
        reporting.validate();
        RunReport.ResultOptions report = resultFile.toResultOptions();
        Path chart = runFiles.chart();
        Path html = runFiles.html();
        checkPipelineOptions();
        publisher.validate();
        serverMetrics.validate();
        SimulatorServer simulator =
                simulate.startOrNull(target.servedName(modelId), sampling.loraModules, tokenizer, traffic.seed);
        try {
            Load load = load(modelId, tokenizer, simulator, requestSampling, arrivals);
            RunPlan plan = new RunPlan(
                    load.settings(),
                    load.dataset(),
                    tokenizer,
                    timeouts.timeouts(run.shardStartTimeout()),
                    publisher.spool(),
                    publisher.chunkRecords(),
                    serverMetrics.scrapes(load.settings().target().baseUrl()),
                    // --report's timeline needs every request's send time, as --save-detailed's lists do
                    report.detailed() || html != null,
                    run.profile);
            return new PreparedRun(plan, new RunOutput(report, chart, html, kafka.reachingFlags()), simulator);
        } catch (RuntimeException e) {
            if (simulator != null) {
                simulator.close();
            }
            throw e;
        }
    }

    /**
     * Runs a prepared run on {@code host} and prints its block (and saves its files when asked); the
     * outcome says how bench exits: 0, 1 for a result scored without its summary, 130/143 after a
     * signal. {@code early}, when not null, stops the run as Ctrl-C does (but exiting 0) when the
     * server is past saturation.
     */
    RunOutcome runOn(PreparedRun prepared, BenchHost host, PrintStream out, EarlyStop early)
            throws IOException, InterruptedException {
        out.println(RunPointers.before(prepared.plan().load().runId()));
        return BenchRun.run(
                prepared.plan(),
                host,
                early,
                new BenchRun.Console(
                        // the simulator runs in this process: its CPU is part of the client's
                        result -> prepared.output()
                                .print(result, prepared.plan(), simulate.simulate, host.pipeline(), out),
                        out,
                        System.err));
    }

    /** The load generator's settings, and the dataset built from them (read once). */
    private record Load(LoadSettings settings, Dataset dataset) {}

    private Load load(
            String modelId,
            Tokenizer tokenizer,
            SimulatorServer simulator,
            io.tokenpulse.producer.backend.BackendSettings.Sampling requestSampling,
            ArrivalSettings arrivals) {
        try {
            LoadSettings.Target loadTarget =
                    target.target(modelId, simulator == null ? null : simulator.baseUri(), requestSampling);
            dataset.checkMultiTurn();
            SessionOptions sessionOptions = sessions.options(dataset.sessions());
            DatasetOptions datasetOptions = dataset.options(loadTarget.promptStyle());
            // Built here so that an unknown dataset or a bad file fails before anything starts.
            Dataset built = Datasets.create(datasetOptions, tokenizer);
            built.checkCount(traffic.numPrompts);
            LoadSettings.Workload workload = new LoadSettings.Workload(
                    datasetOptions,
                    target.tokenizerId(modelId),
                    traffic.numPrompts,
                    traffic.durationMinutes,
                    arrivals,
                    traffic.maxConcurrency,
                    traffic.numWarmups,
                    sampling.lora(),
                    sessionOptions,
                    traffic.probeRequestRate);
            LoadSettings.Reporting runReporting = reporting.runReporting(RunConfigJson.of(spec, BenchNamespace.ORDER));
            return new Load(
                    new LoadSettings(
                            run.runId != null ? run.runId : RunIds.next(),
                            run.shardIndex,
                            run.shardCount,
                            loadTarget,
                            workload,
                            runReporting,
                            run.requestIdPrefix,
                            target.readyTimeout(),
                            run.disableTqdm,
                            resultFile.saveDetailed),
                    built);
        } catch (IllegalArgumentException e) {
            throw UserError.usage(e.getMessage());
        }
    }

    private void checkPipelineOptions() {
        metrics.validate();
        if (metrics.otlpEndpoint != null && !kafka.embedded()) {
            // bench aggregates in-process only on the embedded platform
            throw UserError.usage("--otlp-endpoint exports bench's in-process aggregator, which runs only on the"
                    + " embedded platform; with --bootstrap-servers give it to 'tokenpulse aggregate'");
        }
        windows.validate();
        timeouts.validate();
        pipelineNice.validate();
        frugal.validate(kafka.embedded());
        if (!kafka.embedded()
                && (spec.commandLine().getParseResult().hasMatchedOption(WindowOptions.SIZE)
                        || spec.commandLine().getParseResult().hasMatchedOption(WindowOptions.GRACE))) {
            throw UserError.usage(
                    WindowOptions.SIZE + " and " + WindowOptions.GRACE
                            + " shape the in-process aggregator's windows; with --bootstrap-servers give them to 'tokenpulse aggregate'");
        }
    }
}
