package io.tokenpulse.producer;

import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.producer.dataset.Prompt;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class ProbeSenderTest {

    @Test
    void probesComeAtTheRateWithTheirOwnIndicesAndStopOnClose() throws Exception {
        List<PlannedRequest> sent = new CopyOnWriteArrayList<>();
        List<Long> launchedNs = new CopyOnWriteArrayList<>();
        long startNs = System.nanoTime();
        try (ProbeSender probes = new ProbeSender(50, startNs, 2, probe -> {
            sent.add(probe);
            launchedNs.add(System.nanoTime());
        })) {
            Thread.sleep(300);
        }
        long closedNs = System.nanoTime();
        int afterClose = sent.size();
        Thread.sleep(100);
        assertThat(sent).as("no probe after close").hasSize(afterClose);
        // 50/s: due at 20, 40, ... ms; never more than were due by the close (a loaded machine sleeps longer)
        assertThat(afterClose).isBetween(5, (int) ((closedNs - startNs) / 20_000_000L));
        for (int k = 0; k < afterClose; k++) {
            PlannedRequest probe = sent.get(k);
            assertThat(probe.index()).isEqualTo(ProbeSender.INDEX_BASE + 2 * ProbeSender.SHARD_RANGE + k);
            assertThat(probe.offsetNs()).isEqualTo((k + 1) * 20_000_000L);
            assertThat(launchedNs.get(k) - startNs)
                    .as("never before its time")
                    .isGreaterThanOrEqualTo(probe.offsetNs());
            assertThat(probe.sample().expectedOutputLen()).isEqualTo(1);
            assertThat(probe.sample().prompt()).isEqualTo(new Prompt.Text(ProbeSender.PROMPT));
        }
    }
}
