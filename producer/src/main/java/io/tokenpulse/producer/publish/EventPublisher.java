package io.tokenpulse.producer.publish;

import io.tokenpulse.schemas.TopicSpec;
import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.avro.ChunkBatch;
import io.tokenpulse.schemas.avro.RequestEvent;
import io.tokenpulse.schemas.avro.RequestFinished;
import io.tokenpulse.schemas.avro.RunEvent;
import io.tokenpulse.schemas.avro.ServerMetric;
import io.tokenpulse.schemas.logging.RepeatedWarning;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.MpscArrayQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands the run's records to Kafka without ever making a timing thread wait.
 *
 * <p>Two sides, split by a bounded lock-free queue (JCTools' multi-producer single-consumer array
 * queue):
 * <ul>
 *   <li>{@code publishChunk} and {@code publishRequest} run on the HTTP I/O threads: they only offer
 *       the record to the queue and return. A full queue counts the record as
 *       {@link DeliveryFailure#BUFFER_FULL}; nothing on this side locks, blocks or does I/O.
 *   <li>One sender thread drains the queue: it serializes each record and calls
 *       {@link KafkaProducer#send}, which <em>may block</em> (up to {@code max.block.ms}, 10 s by
 *       default) for the topic's metadata or for buffer space. Blocking here costs no timing
 *       accuracy, so the producer keeps Kafka's ordinary behaviour: a topic whose metadata was
 *       dropped after {@code metadata.max.idle.ms} (5 minutes without a record, e.g. the runs topic
 *       between RunStarted and RunFinished of any longer run) is simply fetched again.
 * </ul>
 *
 * <p>While Kafka is away (a broker restart, an outage of minutes) nothing is lost: records already
 * in Kafka's buffer wait there ({@code delivery.timeout.ms} is unbounded), and when {@code send}
 * cannot take a record within {@code max.block.ms} the sender puts it, and every record after it, in
 * a {@link Spool} on disk. It then tries the spool's oldest record again until Kafka takes it, drains
 * the spool in order, and sends directly again once the spool is empty. Only a full spool drops
 * records ({@link DeliveryFailure#SPOOL_FULL}).
 *
 * <p>Records leave in the order they were published (one queue, one sender, one spool), so one
 * request's records keep their order on their partition.
 *
 * <p>{@code publishRun} is called from the run's own thread (never an I/O thread): it waits for
 * queue space rather than dropping a lifecycle record, and returns the record's delivery, so the run
 * can tell exactly which of its RunStarted and RunFinished did not arrive.
 *
 * <p>Streamed events go out as {@link ChunkRecords} says: by default the sender gathers a request's
 * consecutive chunks into one {@link ChunkBatch} ({@link ChunkBatcher}), closed at most the batch
 * interval after its first event and at once when the request's finish comes through; or one record
 * per chunk. Either way the timing threads hand over one {@link Chunk} per event.
 *
 * <p>Every record ends up counted exactly once as delivered or failed (by {@link DeliveryFailure});
 * {@link #flush} and {@link #close} report the counts. Counts are in events: a chunk batch counts as
 * the chunks it carries, so they read the same whichever layout the chunks took. A finished request's generated text longer
 * than {@link Topics#MAX_GENERATED_TEXT_BYTES} is cut to it with a marker ({@link #textsTruncated}).
 *
 * <p>Topics and keys follow {@link Topics}: runs keyed by run id; requests and chunks keyed by
 * {@code <run id>/<request index>}, so one request's records share a partition.
 */
public final class EventPublisher implements RecordSink, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EventPublisher.class);
    private static final Duration DEFAULT_CLOSE_TIMEOUT = Duration.ofSeconds(30);
    /**
     * How long the idle sender sleeps before looking at the queue again with a record per event; with
     * chunk batches it sleeps until the batches of the current slot close (at most
     * {@link #LONG_IDLE_PARK_NS}), so it wakes once per batch interval and hands the producer every batch
     * of the slot at once (docs/performance.md). Sleeping instead of being woken keeps every signal off
     * the timing threads. 20 ms rather than 10 ms halved the sender's wake-ups (100 to 50 a second).
     */
    private static final long IDLE_PARK_NS = 20_000_000;
    /**
     * After a second with nothing queued (a run waiting on a slow server, between sweep points) the
     * sender looks ten times a second instead: an idle pipeline must cost next to no CPU (issue 20), and
     * a record then waits at most 0.1 s more, which the live windows' commit interval hides.
     */
    private static final long LONG_IDLE_PARK_NS = 100_000_000;

    private static final long LONG_IDLE_AFTER_NS = 1_000_000_000;
    /** How often the sender logs drops counted on the timing threads. */
    private static final long WARNING_CHECK_NS = 1_000_000_000;
    /** The pause after Kafka refused a spooled record at once (without blocking), before trying again. */
    private static final long SPOOL_RETRY_NS = 200_000_000;
    /** Records moved from the queue to the spool between sends while draining the spool. */
    private static final int SPOOL_BATCH = 4096;

    private final Producer<byte[], byte[]> producer;
    private final Target<RunEvent> runs;
    private final Target<RequestEvent> requests;
    private final Target<Chunk> chunks;
    private final Target<ServerMetric> serverMetrics;
    private final Target<ChunkBatch> chunkBatches;
    private final MessagePassingQueue<Outgoing<?>> queue;
    private final List<Target<?>> targets;
    private final Spool spool;
    /** Chunks' key and value bytes without the serdes' per-record work; null when it cannot stand in for them. */
    private final ChunkWriter chunkWriter;
    /** Gathers chunks into batches (sender thread only); null when every chunk is a record of its own. */
    private final ChunkBatcher batcher;

    private final ChunkBatcher.Out batchOut = new BatchOut();
    /** Set by {@link #flush}: the sender closes every open batch rather than wait for its interval. */
    private volatile boolean closeBatches;
    /**
     * The spooled records that are not a single record without a delivery (run records with their
     * delivery, chunk batches with their event count), oldest first, by their place in the spool
     * (sender thread only).
     */
    private final ArrayDeque<Spooled> spooledRecords = new ArrayDeque<>();
    /** Of the events in the spool, those beyond one per record (the batches' other events). */
    private long spooledExtraEvents;

    private final Thread sender;
    private final LongAdder published = new LongAdder();
    private final LongAdder delivered = new LongAdder();
    private final LongAdder truncated = new LongAdder();
    private final AtomicBoolean truncationLogged = new AtomicBoolean();
    private final TextCap textCap = new TextCap(Topics.MAX_GENERATED_TEXT_BYTES);
    private final Map<DeliveryFailure, LongAdder> failed = new EnumMap<>(DeliveryFailure.class);
    /** One rate-limited warning per reason: the first few with detail, then a count per minute. */
    private final Map<DeliveryFailure, RepeatedWarning> warnings = new EnumMap<>(DeliveryFailure.class);
    /** Failures counted without a log line (on a timing thread, or without an error): logged as counts later. */
    private final Map<DeliveryFailure, LongAdder> unlogged = new EnumMap<>(DeliveryFailure.class);
    /** Of {@link #unlogged}, how many a warning line has already counted. */
    private final Map<DeliveryFailure, AtomicLong> unloggedWarned = new EnumMap<>(DeliveryFailure.class);

    private final Callback onAck = new Acknowledgement(null, 1);
    private final LongAdder everSpooled = new LongAdder();
    private volatile long spooledNow;
    private volatile boolean closing;
    /** Sender thread only: set by a callback that Kafka ran inside send() because it timed out. */
    private boolean inSend;

    private boolean sendTimedOut;
    private long spoolAppended;
    private long spoolRemoved;
    private long spoolingSinceNs;

    EventPublisher(
            Producer<byte[], byte[]> producer,
            TopicSpec<RunEvent> runs,
            TopicSpec<RequestEvent> requests,
            TopicSpec<Chunk> chunks,
            TopicSpec<ServerMetric> serverMetrics,
            TopicSpec<ChunkBatch> chunkBatches,
            ChunkRecords chunkRecords,
            int queueCapacity,
            Spool spool) {
        this.producer = producer;
        this.runs = new Target<>(0, runs, RunEvent::getRunId);
        this.requests = new Target<>(1, requests, e -> Topics.requestKey(e.getRunId(), e.getRequestIndex()));
        this.chunks = new Target<>(2, chunks, c -> Topics.requestKey(c.getRunId(), c.getRequestIndex()));
        this.serverMetrics = new Target<>(3, serverMetrics, ServerMetric::getRunId);
        this.chunkBatches = new Target<>(4, chunkBatches, b -> Topics.requestKey(b.getRunId(), b.getRequestIndex()));
        this.targets = List.of(this.runs, this.requests, this.chunks, this.serverMetrics, this.chunkBatches);
        this.spool = spool;
        // batched, a chunk only joins its batch: no record of its own to write
        this.chunkWriter = chunkRecords.batched() ? null : ChunkWriter.forSerializer(this.chunks.valueSerializer);
        this.batcher = chunkRecords.batched()
                ? new ChunkBatcher(
                        this.chunkBatches.valueSerializer,
                        this.chunkBatches.topic,
                        chunkRecords.batchInterval().toNanos())
                : null;
        this.queue = new MpscArrayQueue<>(queueCapacity);
        for (DeliveryFailure reason : DeliveryFailure.values()) {
            failed.put(reason, new LongAdder());
            warnings.put(reason, new RepeatedWarning(LOG, "undelivered records (" + reason + ")"));
            unlogged.put(reason, new LongAdder());
            unloggedWarned.put(reason, new AtomicLong());
        }
        this.sender = new Thread(this::sendQueued, "tp-kafka-sender");
        sender.setDaemon(true);
        sender.start();
    }

    /**
     * A publisher to the run, request, chunk (or chunk batch) and scrape topics of {@code topics}. Before returning (before
     * any timing starts) it resolves the value schemas' ids, so no registry round trip happens later,
     * and fetches the topics' partitions, so that a broker that does not answer is reported now.
     *
     * @throws IllegalStateException when Kafka gives no metadata within {@code max.block.ms}
     * @throws org.apache.kafka.common.errors.SerializationException when a schema cannot be resolved
     */
    public static EventPublisher open(PublisherSettings settings, Topics topics) {
        topics.resolveSchemaIds();
        KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                settings.producerProperties(), new ByteArraySerializer(), new ByteArraySerializer());
        try {
            TopicSpec<?> chunkTopic = settings.chunkRecords().batched() ? topics.chunkBatches() : topics.chunks();
            for (TopicSpec<?> topic : List.of(topics.runs(), topics.requests(), chunkTopic, topics.serverMetrics())) {
                producer.partitionsFor(topic.name()); // waits up to max.block.ms
            }
        } catch (TimeoutException e) {
            producer.close(Duration.ZERO);
            throw new IllegalStateException("Kafka at " + settings.bootstrapServers() + " gave no metadata for the"
                    + " topics within max.block.ms (" + settings.maxBlockMs() + " ms): check the bootstrap servers"
                    + " and that the topics exist");
        } catch (RuntimeException e) {
            producer.close(Duration.ZERO);
            throw e;
        }
        return new EventPublisher(
                producer,
                topics.runs(),
                topics.requests(),
                topics.chunks(),
                topics.serverMetrics(),
                topics.chunkBatches(),
                settings.chunkRecords(),
                settings.queueCapacity(),
                new Spool(spoolFolder(settings), settings.spoolMaxBytes()));
    }

    /** A folder of this publisher's own under the spool directory, so that two runs never share one. */
    private static Path spoolFolder(PublisherSettings settings) {
        return settings.spoolDir()
                .resolve(settings.clientId() + "-" + ProcessHandle.current().pid() + "-" + System.currentTimeMillis());
    }

    /**
     * Publishes a RunStarted or RunFinished. Waits while the queue is full (this is never an I/O
     * thread), up to {@code timeout}; the returned future completes when Kafka acknowledges the
     * record, or exceptionally with the reason it will not arrive.
     */
    public CompletableFuture<Void> publishRun(RunEvent event, Duration timeout) {
        CompletableFuture<Void> delivery = new CompletableFuture<>();
        published.increment();
        Outgoing<RunEvent> record = new Outgoing<>(runs, event, delivery);
        long deadlineNs = System.nanoTime() + timeout.toNanos();
        while (!queue.relaxedOffer(record)) {
            if (closing || System.nanoTime() > deadlineNs) {
                failed(record, closing ? DeliveryFailure.CLOSED : DeliveryFailure.BUFFER_FULL, null);
                return delivery;
            }
            LockSupport.parkNanos(IDLE_PARK_NS);
        }
        return delivery;
    }

    @Override
    public void publishRequest(RequestEvent event) {
        RequestEvent capped = textCap.apply(event);
        if (capped != event) {
            truncated.increment();
            if (truncationLogged.compareAndSet(false, true)) {
                LOG.warn(
                        "the generated text of request {}/{} exceeds {} UTF-8 bytes: it is kept truncated, with a marker;"
                                + " further ones are counted",
                        event.getRunId(),
                        event.getRequestIndex(),
                        Topics.MAX_GENERATED_TEXT_BYTES);
            }
        }
        offer(new Outgoing<>(requests, capped, null));
    }

    /** Finished requests whose generated text was cut to {@link Topics#MAX_GENERATED_TEXT_BYTES}. */
    public long textsTruncated() {
        return truncated.sum();
    }

    @Override
    public void publishChunk(Chunk chunk) {
        offer(new Outgoing<>(chunks, chunk, null));
    }

    /** Queues one series of a scrape of the server's /metrics; never blocks (a full queue counts it as lost). */
    public void publishServerMetric(ServerMetric metric) {
        offer(new Outgoing<>(serverMetrics, metric, null));
    }

    /** The counts so far; {@code pending} records (queued or in Kafka's buffer) may still arrive. */
    public PublishCounts counts() {
        Map<DeliveryFailure, Long> failures = new EnumMap<>(DeliveryFailure.class);
        failed.forEach((reason, count) -> failures.put(reason, count.sum()));
        // read delivered and failed before published, so a record in flight never shows as negative pending
        long acknowledged = delivered.sum();
        long failedTotal = failures.values().stream().mapToLong(Long::longValue).sum();
        long publishedNow = published.sum();
        return new PublishCounts(
                publishedNow,
                acknowledged,
                failures,
                Math.max(0, publishedNow - acknowledged - failedTotal),
                spooledNow);
    }

    /** Records that went through the spool so far (Kafka could not take them when they came). */
    public long everSpooled() {
        return everSpooled.sum();
    }

    /**
     * Waits up to {@code timeout} until every record published so far is delivered or failed, and
     * returns the counts (records still pending after the timeout show as pending).
     */
    public PublishCounts flush(Duration timeout) {
        long deadlineNs = System.nanoTime() + timeout.toNanos();
        closeBatches = true;
        LockSupport.unpark(sender);
        PublishCounts counts = counts();
        while (counts.pending() > 0 && System.nanoTime() < deadlineNs) {
            try {
                Thread.sleep(5); // KafkaProducer.flush() has no timeout, hence polling our own counts
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            counts = counts();
        }
        return counts;
    }

    /**
     * Flushes for up to {@code timeout}, then closes the producer; records still queued or pending
     * are dropped and counted as {@link DeliveryFailure#CLOSED}. Returns the final counts.
     */
    public PublishCounts close(Duration timeout) {
        flush(timeout);
        closing = true;
        LockSupport.unpark(sender); // an idle sender would look again only after its pause
        producer.close(Duration.ZERO); // also wakes a sender blocked on metadata or buffer space
        try {
            sender.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        dropQueued(); // whatever a late publish call offered after the sender's last look
        if (batcher != null && batcher.openEvents() > 0) { // the sender has stopped: its batches are ours now
            failed(null, DeliveryFailure.CLOSED, null, batcher.openEvents());
        }
        dropSpooled();
        warnOfDrops();
        PublishCounts counts = counts();
        LOG.info(
                "published {} records: {} delivered, {} not delivered {}",
                counts.published(),
                counts.delivered(),
                counts.notDelivered(),
                counts.failed());
        if (truncated.sum() > 0) {
            LOG.warn(
                    "{} generated texts were truncated to {} UTF-8 bytes (marked at their end)",
                    truncated.sum(),
                    Topics.MAX_GENERATED_TEXT_BYTES);
        }
        return counts;
    }

    @Override
    public void close() {
        close(DEFAULT_CLOSE_TIMEOUT);
    }

    /** The timing side: never waits. */
    private void offer(Outgoing<?> record) {
        published.increment();
        if (closing) {
            failed(record, DeliveryFailure.CLOSED, null);
        } else if (!queue.relaxedOffer(record)) {
            failed(record, DeliveryFailure.BUFFER_FULL, null);
        }
    }

    /** The sender thread's loop: until closed, hand every queued record to the producer or the spool. */
    private void sendQueued() {
        long nextWarningCheckNs = 0;
        long idleSinceNs = System.nanoTime();
        while (!closing) {
            if (System.nanoTime() > nextWarningCheckNs) {
                warnOfDrops();
                nextWarningCheckNs = System.nanoTime() + WARNING_CHECK_NS;
            }
            if (batcher != null) {
                closeDueBatches();
            }
            if (spool.isEmpty()) {
                Outgoing<?> record = queue.relaxedPoll();
                if (record == null) {
                    long nowNs = System.nanoTime();
                    long parkNs = nowNs - idleSinceNs > LONG_IDLE_AFTER_NS ? LONG_IDLE_PARK_NS : IDLE_PARK_NS;
                    long untilSlotEndNs = batcher == null ? 0 : batcher.slotEndNs(nowNs) - nowNs;
                    if (untilSlotEndNs > 0) { // wake when the batches of this slot close, all at once
                        parkNs = Math.min(LONG_IDLE_PARK_NS, untilSlotEndNs);
                    }
                    LockSupport.parkNanos(parkNs);
                } else {
                    take(record);
                    idleSinceNs = System.nanoTime();
                }
            } else {
                spoolQueued();
                drainSpool();
            }
        }
        dropQueued();
    }

    private void dropQueued() {
        queue.drain(record -> failed(record, DeliveryFailure.CLOSED, null));
    }

    /** The batches whose interval is over, or all of them when {@link #flush} asked. */
    private void closeDueBatches() {
        if (closeBatches) {
            closeBatches = false;
            batcher.flushAll(batchOut);
        } else {
            long nowNs = System.nanoTime();
            if (nowNs >= batcher.nextDueNs()) {
                batcher.flushDue(nowNs, batchOut);
            }
        }
    }

    /**
     * A record from the queue: a chunk joins its request's batch; a finish first closes its request's
     * batch, and a run record every batch, so that they follow the events before them.
     */
    private void take(Outgoing<?> record) {
        if (batcher != null) {
            try {
                if (record.target == chunks) {
                    batcher.add((Chunk) record.value, System.nanoTime(), batchOut);
                    return;
                }
                if (record.value instanceof RequestEvent event && event.getEvent() instanceof RequestFinished) {
                    batcher.flushRequest(event.getRunId(), event.getRequestIndex(), batchOut);
                } else if (record.target == runs) {
                    batcher.flushAll(batchOut);
                }
            } catch (RuntimeException e) { // a chunk without a run id
                failed(record.delivery, DeliveryFailure.of(e, closing), e);
                return;
            }
        }
        Spool.Record bytes = serialized(record);
        if (bytes != null) {
            forward(bytes, record.delivery, 1);
        }
    }

    /**
     * Sends a record of {@code events} events, or spools it: behind the records already spooled, or
     * when Kafka cannot take it now.
     */
    private void forward(Spool.Record bytes, CompletableFuture<Void> delivery, int events) {
        if (!spool.isEmpty()) {
            spool(bytes, delivery, events);
        } else if (!trySend(bytes, delivery, events)) {
            LOG.warn("Kafka took no record within max.block.ms: keeping records in {} until it is back", spool.dir());
            spoolingSinceNs = System.nanoTime();
            spool(bytes, delivery, events);
        }
    }

    /** The record's key and value bytes; null (the record counted as failed) when it cannot be serialized. */
    private <V> Spool.Record serialized(Outgoing<V> record) {
        Target<V> target = record.target;
        try {
            if (target == chunks && chunkWriter != null) { // most records: one per streamed event
                Chunk chunk = (Chunk) record.value;
                return new Spool.Record(target.index, chunkWriter.key(chunk), chunkWriter.value(chunk));
            }
            byte[] key = target.keySerializer.serialize(target.topic, target.key.apply(record.value));
            byte[] value = target.valueSerializer.serialize(target.topic, record.value);
            return new Spool.Record(target.index, key, value);
        } catch (RuntimeException e) {
            failed(record.delivery, DeliveryFailure.of(e, closing), e);
            return null;
        }
    }

    /**
     * Hands a record to Kafka; false when Kafka could not take it within {@code max.block.ms} (no
     * metadata, no buffer space), in which case nothing was counted and the caller keeps the record.
     */
    private boolean trySend(Spool.Record record, CompletableFuture<Void> delivery, int events) {
        Callback callback = delivery == null && events == 1 ? onAck : new Acknowledgement(delivery, events);
        sendTimedOut = false;
        inSend = true;
        try {
            // Errors Kafka detects at once reach the callback before send returns; may block up to max.block.ms.
            producer.send(
                    new ProducerRecord<>(targets.get(record.target()).topic, record.key(), record.value()), callback);
        } catch (RuntimeException e) {
            failed(delivery, DeliveryFailure.of(e, closing), e, events);
        } finally {
            inSend = false;
        }
        return !sendTimedOut;
    }

    /** Puts a record of {@code events} events in the spool (the sender thread only); a full spool drops and counts it. */
    private void spool(Spool.Record record, CompletableFuture<Void> delivery, int events) {
        boolean kept;
        try {
            kept = spool.append(record);
        } catch (UncheckedIOException e) {
            failed(delivery, DeliveryFailure.SPOOL_FULL, e, events);
            return;
        }
        if (!kept) {
            failed(delivery, DeliveryFailure.SPOOL_FULL, null, events);
            return;
        }
        if (delivery != null || events != 1) {
            spooledRecords.addLast(new Spooled(spoolAppended, delivery, events));
            spooledExtraEvents += events - 1;
        }
        spoolAppended++;
        everSpooled.add(events);
        spooledNow = spool.records() + spooledExtraEvents;
    }

    /** While the spool has records, every newly queued record goes behind them, keeping the order. */
    private void spoolQueued() {
        queue.drain(this::take, SPOOL_BATCH);
    }

    /**
     * Sends the spool's records, oldest first, until it is empty, Kafka refuses one (then it stays for
     * the next try) or the publisher closes; keeps moving the queue into the spool meanwhile.
     */
    private void drainSpool() {
        long sent = 0;
        while (!spool.isEmpty() && !closing) {
            Spool.Record record = spool.peek();
            Spooled next = spooledRecords.peekFirst();
            if (next != null && next.place != spoolRemoved) {
                next = null; // the head is a single record without a delivery
            }
            CompletableFuture<Void> delivery = next == null ? null : next.delivery;
            int events = next == null ? 1 : next.events;
            long triedNs = System.nanoTime();
            if (!trySend(record, delivery, events)) {
                if (System.nanoTime() - triedNs < SPOOL_RETRY_NS) {
                    LockSupport.parkNanos(SPOOL_RETRY_NS); // refused at once: do not spin
                }
                return;
            }
            if (next != null) {
                spooledRecords.removeFirst();
                spooledExtraEvents -= events - 1;
            }
            spool.remove();
            spoolRemoved++;
            spooledNow = spool.records() + spooledExtraEvents;
            if (++sent % SPOOL_BATCH == 0) {
                spoolQueued();
            }
        }
        if (spool.isEmpty()) {
            LOG.warn(
                    "Kafka is back: the records kept while it was away ({} in all) are handed to it, after {} s",
                    everSpooled.sum(),
                    (System.nanoTime() - spoolingSinceNs) / 1_000_000_000);
        }
    }

    /**
     * At close: whatever is still in the spool did not arrive ({@link DeliveryFailure#SPOOL_UNDRAINED});
     * it stays on disk for {@code tokenpulse publish-spool}.
     */
    private void dropSpooled() {
        long left = spool.records();
        if (left == 0) {
            spool.close();
            return;
        }
        failed.get(DeliveryFailure.SPOOL_UNDRAINED).add(left + spooledExtraEvents);
        spooledRecords.stream()
                .filter(s -> s.delivery != null)
                .forEach(s -> s.delivery.completeExceptionally(
                        new UndeliveredRecordException(DeliveryFailure.SPOOL_UNDRAINED, null)));
        spooledRecords.clear();
        spooledExtraEvents = 0;
        spooledNow = 0;
        try {
            spool.keep(targets.stream().map(t -> t.topic).toList());
            LOG.warn(
                    "{} records Kafka did not take are kept in {}: publish them with ./tokenpulse publish-spool {}"
                            + " --bootstrap-servers HOST:PORT",
                    left,
                    spool.dir(),
                    spool.dir());
        } catch (UncheckedIOException e) {
            LOG.warn("{} records Kafka did not take are lost: {}", left, e.getMessage());
        }
    }

    /** Where this publisher spools (created only once Kafka could not take a record). */
    public Path spoolDir() {
        return spool.dir();
    }

    /** Counts a record that will not arrive; completes its delivery, if it has one, with the reason. */
    private void failed(Outgoing<?> record, DeliveryFailure reason, Exception error) {
        failed(record == null ? null : record.delivery, reason, error);
    }

    private void failed(CompletableFuture<Void> delivery, DeliveryFailure reason, Exception error) {
        failed(delivery, reason, error, 1);
    }

    /** Counts a record of {@code events} events that will not arrive. */
    private void failed(CompletableFuture<Void> delivery, DeliveryFailure reason, Exception error, long events) {
        failed.get(reason).add(events);
        if (delivery != null) {
            delivery.completeExceptionally(new UndeliveredRecordException(reason, error));
        }
        if (error != null) { // a Kafka error: reported on the sender or the producer's network thread
            warnings.get(reason).warn("a record could not be delivered to Kafka ({}): {}", reason, error.toString());
        } else {
            unlogged.get(reason).add(events); // maybe on a timing thread, which must not wait on the console
        }
    }

    /**
     * Logs, as counts, the failures that {@link #failed} did not log: those counted on a timing thread
     * (a full queue), which must not wait on the console. Runs on the sender thread and at close.
     */
    private void warnOfDrops() {
        for (DeliveryFailure reason : DeliveryFailure.values()) {
            long counted = unlogged.get(reason).sum();
            long newly = counted - unloggedWarned.get(reason).getAndSet(counted);
            if (newly > 0) {
                warnings.get(reason).warn("{} records could not be delivered to Kafka ({})", newly, reason);
            }
        }
    }

    /**
     * Kafka's answer for one record. Run inside {@code send} on the sender thread when Kafka timed
     * out waiting for metadata or buffer space: then it only tells the sender, which spools the record.
     */
    private final class Acknowledgement implements Callback {
        private final CompletableFuture<Void> delivery;
        private final int events;

        Acknowledgement(CompletableFuture<Void> delivery, int events) {
            this.delivery = delivery;
            this.events = events;
        }

        @Override
        public void onCompletion(RecordMetadata metadata, Exception error) {
            if (error == null) {
                delivered.add(events);
                if (delivery != null) {
                    delivery.complete(null);
                }
            } else if (inSend && error instanceof TimeoutException && !closing && Thread.currentThread() == sender) {
                sendTimedOut = true;
            } else {
                failed(delivery, DeliveryFailure.of(error, closing), error, events);
            }
        }
    }

    /** Closed batches: sent or spooled as one record of their events; one that cannot be written is counted. */
    private final class BatchOut implements ChunkBatcher.Out {
        @Override
        public void batch(byte[] key, byte[] value, int events) {
            forward(new Spool.Record(chunkBatches.index, key, value), null, events);
        }

        @Override
        public void unwritable(int events, RuntimeException error) {
            failed(null, DeliveryFailure.of(error, closing), error, events);
        }
    }

    /** A record waiting for the sender, with the delivery its publisher waits on (run records only). */
    private record Outgoing<V>(Target<V> target, V value, CompletableFuture<Void> delivery) {}

    /**
     * A spooled record at {@code place} (counted from the first record spooled) with a run record's
     * delivery, or a batch's event count.
     */
    private record Spooled(long place, CompletableFuture<Void> delivery, int events) {}

    /** A topic with its serializers and key, looked up once. */
    private static final class Target<V> {
        final int index;
        final String topic;
        final Serializer<String> keySerializer;
        final Serializer<V> valueSerializer;
        final Function<V, String> key;

        Target(int index, TopicSpec<V> spec, Function<V, String> key) {
            this.index = index;
            this.topic = spec.name();
            this.keySerializer = spec.keySerde().serializer();
            this.valueSerializer = spec.valueSerde().serializer();
            this.key = key;
        }
    }
}
