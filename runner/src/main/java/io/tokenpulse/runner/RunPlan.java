package io.tokenpulse.runner;

import io.tokenpulse.producer.LoadSettings;
import io.tokenpulse.producer.dataset.Dataset;
import io.tokenpulse.producer.http.HttpClientSettings;
import io.tokenpulse.producer.publish.ChunkRecords;
import io.tokenpulse.tokenizers.Tokenizer;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One run of a benchmark, as settings: what {@code bench}'s options say once checked, and what a
 * sweep's point says. Printing the result (the block, --save-result, --save-chart, --report) is the
 * caller's; this is what the run itself needs.
 *
 * @param load the load generator's settings (the target is already final, e.g. the simulator's URL)
 * @param dataset the dataset built from {@code load}'s dataset options (read once, when the options were checked)
 * @param tokenizer counts the prompts' and outputs' tokens (the one the dataset was built with)
 * @param timeouts the request, stream-idle, drain and summary limits
 * @param spool where records wait on disk while Kafka is away
 * @param chunkRecords streamed events as batches per request or a record each (--chunk-records)
 * @param scrapes the Prometheus endpoints scraped during the run (none unless asked)
 * @param keepRequests whether to read every request's metrics back beside the summary (--save-detailed, --report)
 * @param profile --profile: POST /start_profile before the load and /stop_profile after the report
 */
public record RunPlan(
        LoadSettings load,
        Dataset dataset,
        Tokenizer tokenizer,
        Timeouts timeouts,
        Spool spool,
        ChunkRecords chunkRecords,
        Scrapes scrapes,
        boolean keepRequests,
        boolean profile) {

    public RunPlan {
        Objects.requireNonNull(load, "load");
        Objects.requireNonNull(dataset, "dataset");
        Objects.requireNonNull(tokenizer, "tokenizer");
        Objects.requireNonNull(timeouts, "timeouts");
        Objects.requireNonNull(spool, "spool");
        Objects.requireNonNull(chunkRecords, "chunkRecords");
        Objects.requireNonNull(scrapes, "scrapes");
    }

    /**
     * @param http the request and stream-idle limits of the HTTP client
     * @param drain after a stop (Ctrl-C, SIGTERM, a saturation stop): how long requests in flight may finish
     * @param summary how long to wait for the run's summary after the last response
     */
    public record Timeouts(HttpClientSettings http, Duration drain, Duration summary, Duration shardStart) {
        /** The default shard start barrier's wait, 120 s. */
        public Timeouts(HttpClientSettings http, Duration drain, Duration summary) {
            this(http, drain, summary, Duration.ofSeconds(120));
        }
    }

    /**
     * @param dir the spool's folder (absolute)
     * @param maxBytes most the spool holds; 0 keeps nothing
     */
    public record Spool(Path dir, long maxBytes) {}

    /**
     * @param sources the /metrics URLs scraped into the server-metrics topic; empty: none
     * @param interval time between two scrapes
     */
    public record Scrapes(List<URI> sources, Duration interval) {
        public Scrapes {
            sources = List.copyOf(sources);
        }
    }
}
