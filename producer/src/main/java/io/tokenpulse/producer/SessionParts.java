package io.tokenpulse.producer;

import io.tokenpulse.producer.backend.Backend;
import io.tokenpulse.producer.backend.BackendSettings;
import io.tokenpulse.producer.health.ClientHealth;
import io.tokenpulse.producer.http.StreamingHttpClient;
import io.tokenpulse.producer.session.SessionOptions;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntFunction;

/**
 * What every {@link Session} of one shard's run shares.
 *
 * @param run the run's records, tally and tokenizer
 * @param client sends the turns
 * @param backend builds and reads them
 * @param backendSettings the target's settings
 * @param settings the run's settings (request ids, run id, seed)
 * @param options think time, history and header
 * @param turns the one thread that builds each later turn (tokenizing its history) and sends it when
 *     its think time is over: off the I/O threads, which must never wait
 * @param health the client's meters
 * @param releasePermit gives back the {@code --max-concurrency} slot a session held
 * @param sendModel the model request {@code i} names instead of the target's (a LoRA adapter), or null
 * @param stopped set once the run stops sending: no session sends another turn
 */
record SessionParts(
        RunContext run,
        StreamingHttpClient client,
        Backend backend,
        BackendSettings backendSettings,
        LoadSettings settings,
        SessionOptions options,
        ScheduledExecutorService turns,
        ClientHealth health,
        Runnable releasePermit,
        IntFunction<String> sendModel,
        AtomicBoolean stopped) {}
