package io.tokenpulse.producer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tokenpulse.producer.dataset.Prompt;
import io.tokenpulse.producer.dataset.SampledRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class DispatcherTest {

    private static final long MS = 1_000_000L;
    private static final long START_NS = 5_000 * MS;

    /** Time moves only when the dispatcher sleeps, or when the test says so. */
    static final class FakeTicker implements Ticker {
        final AtomicLong nowNs = new AtomicLong(START_NS);

        @Override
        public long nanoTime() {
            return nowNs.get();
        }

        @Override
        public void sleepUntil(long deadlineNs) {
            nowNs.accumulateAndGet(deadlineNs, Math::max);
        }
    }

    record Sent(int index, long scheduledNs, long permitNs, long sentNs) {}

    private final FakeTicker ticker = new FakeTicker();
    private final List<Sent> sent = new CopyOnWriteArrayList<>();

    @Test
    void eachRequestGoesAtItsOffsetWhileEarlierOnesAreStillStreaming() throws Exception {
        Dispatcher dispatcher = new Dispatcher(ticker, null);

        long count =
                dispatcher.run(START_NS, Long.MAX_VALUE, plan(0, 10, 10, 35).iterator(), this::launch);

        assertThat(count).isEqualTo(4);
        assertThat(sent)
                .extracting(Sent::sentNs)
                .containsExactly(START_NS, START_NS + 10 * MS, START_NS + 10 * MS, START_NS + 35 * MS);
        assertThat(sent).extracting(Sent::permitNs).containsOnly(Dispatcher.NO_LIMIT);
    }

    @Test
    void aRequestLateForItsSlotIsSentAtOnceNotShifted() throws Exception {
        Dispatcher dispatcher = new Dispatcher(ticker, null);
        ticker.nowNs.set(START_NS + 25 * MS); // the scheduler fell behind

        dispatcher.run(START_NS, Long.MAX_VALUE, plan(0, 10, 20, 30).iterator(), this::launch);

        assertThat(sent)
                .extracting(Sent::sentNs)
                .containsExactly(START_NS + 25 * MS, START_NS + 25 * MS, START_NS + 25 * MS, START_NS + 30 * MS);
    }

    @Test
    void underMaxConcurrencyTheNextRequestTakesItsPermitWhenOneEndsAndScheduledPermitSentStayInOrder()
            throws Exception {
        Dispatcher dispatcher = new Dispatcher(ticker, 1);
        CountDownLatch firstSent = new CountDownLatch(1);
        Thread scheduler = new Thread(() -> {
            try {
                dispatcher.run(START_NS, Long.MAX_VALUE, plan(0, 10).iterator(), request -> permitNs -> {
                    launch(request).send(permitNs);
                    firstSent.countDown();
                });
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        scheduler.start();
        assertThat(firstSent.await(5, TimeUnit.SECONDS)).isTrue();
        Thread.sleep(50); // the scheduler now waits for the only permit
        assertThat(sent).hasSize(1);

        ticker.nowNs.set(START_NS + 40 * MS); // the first request ends 40 ms in
        dispatcher.releasePermit();
        scheduler.join(5_000);

        assertThat(sent).hasSize(2);
        Sent second = sent.get(1);
        assertThat(second.scheduledNs()).isEqualTo(START_NS + 10 * MS);
        assertThat(second.permitNs()).isEqualTo(START_NS + 40 * MS);
        assertThat(second.sentNs()).isEqualTo(START_NS + 40 * MS);
        assertThat(sent).allSatisfy(s -> assertThat(s.scheduledNs()).isLessThanOrEqualTo(s.permitNs()));
    }

    @Test
    void anInterruptStopsASchedulerRunningBehindItsSchedule() {
        Dispatcher dispatcher = new Dispatcher(Ticker.SYSTEM, null);
        long longAgoNs = System.nanoTime() - 1_000 * MS; // every request is overdue: no wait to interrupt

        Thread.currentThread().interrupt();
        assertThatThrownBy(() ->
                        dispatcher.run(longAgoNs, Long.MAX_VALUE, plan(0, 0, 0).iterator(), this::launch))
                .isInstanceOf(InterruptedException.class);
        assertThat(sent).isEmpty();
    }

    @Test
    void nothingIsSentAtOrAfterTheEnd() throws Exception {
        Dispatcher dispatcher = new Dispatcher(ticker, null);

        long count =
                dispatcher.run(START_NS, START_NS + 20 * MS, plan(0, 10, 20, 30).iterator(), this::launch);

        assertThat(count).isEqualTo(2);
        assertThat(sent).extracting(Sent::index).containsExactly(0, 1);
    }

    @Test
    void aPermitThatComesAfterTheEndSendsNothing() throws Exception {
        Dispatcher dispatcher = new Dispatcher(ticker, 1);

        long count = dispatcher.run(START_NS, START_NS + 20 * MS, plan(0, 10).iterator(), this::launch);

        assertThat(count)
                .as("the second waits for a permit the first never gives back")
                .isEqualTo(1);
    }

    private Dispatcher.Launch launch(PlannedRequest request) {
        return permitNs ->
                sent.add(new Sent(request.index(), START_NS + request.offsetNs(), permitNs, ticker.nanoTime()));
    }

    private static List<PlannedRequest> plan(long... offsetsMs) {
        SampledRequest sample = new SampledRequest(new Prompt.Text("p"), 1, 1, 0);
        List<PlannedRequest> plan = new ArrayList<>();
        for (int i = 0; i < offsetsMs.length; i++) {
            plan.add(new PlannedRequest(i, offsetsMs[i] * MS, sample));
        }
        return plan;
    }
}
