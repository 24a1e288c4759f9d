package io.tokenpulse.producer;

import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.producer.dataset.Prompt;
import io.tokenpulse.producer.dataset.SampledRequest;
import io.tokenpulse.producer.schedule.ArrivalSchedule;
import io.tokenpulse.producer.schedule.ArrivalSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RequestPlanTest {

    private static final ArrivalSettings FIVE_PER_SECOND = ArrivalSettings.constant(5.0, 1.0, 42);

    @Test
    void theShardsTogetherSendEveryDatasetIndexOnceAtTheSingleGeneratorsOffset() {
        List<SampledRequest> samples = samples(10);
        long[] single = ArrivalSchedule.precompute(FIVE_PER_SECOND, 10).offsetsNs();

        Map<Integer, Long> offsetByIndex = new TreeMap<>();
        for (int k = 0; k < 3; k++) {
            for (PlannedRequest request : drain(RequestPlan.fixed(FIVE_PER_SECOND, new Shard(k, 3), samples))) {
                assertThat(request.index() % 3)
                        .as("shard %d owns i %% 3 == %d", k, k)
                        .isEqualTo(k);
                assertThat(request.sample().index())
                        .as("request index stays the dataset index")
                        .isEqualTo(request.index());
                assertThat(offsetByIndex.put(request.index(), request.offsetNs()))
                        .isNull();
            }
        }

        assertThat(offsetByIndex.keySet()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        for (int i = 0; i < 10; i++) {
            assertThat(offsetByIndex.get(i)).isEqualTo(single[i]);
        }
    }

    @Test
    void samplesWithTheirOwnTimesAreSentAtThemNotOnTheSchedule() {
        List<SampledRequest> samples = List.of(
                new SampledRequest(new Prompt.Text("a"), 1, 1, 0, java.util.OptionalLong.of(0)),
                new SampledRequest(new Prompt.Text("b"), 1, 1, 1, java.util.OptionalLong.of(7_000_000)),
                new SampledRequest(new Prompt.Text("c"), 1, 1, 2, java.util.OptionalLong.of(7_000_000)),
                new SampledRequest(new Prompt.Text("d"), 1, 1, 3, java.util.OptionalLong.of(90_000_000)));

        RequestPlan plan = RequestPlan.fixed(FIVE_PER_SECOND, new Shard(1, 2), samples);

        assertThat(plan.ownTimes()).isTrue();
        assertThat(plan.plannedOffsetsNs()).as("the shard's own").containsExactly(7_000_000L, 90_000_000L);
        assertThat(drain(plan)).extracting(PlannedRequest::offsetNs).containsExactly(7_000_000L, 90_000_000L);
        assertThat(RequestPlan.fixed(FIVE_PER_SECOND, new Shard(0, 1), samples(3))
                        .ownTimes())
                .isFalse();
    }

    @ParameterizedTest(name = "shard {0} of {1} sends {3} of {2}")
    @CsvSource({
        "0, 1, 10, 10",
        "0, 3, 10, 4", // 0 3 6 9
        "1, 3, 10, 3", // 1 4 7
        "2, 3, 10, 3", // 2 5 8
        "3, 4, 3, 0", // more shards than requests
    })
    void plannedSizeCountsTheOwnedIndices(int index, int count, int total, int expected) {
        RequestPlan plan = RequestPlan.fixed(FIVE_PER_SECOND, new Shard(index, count), samples(total));

        assertThat(plan.plannedSize()).isEqualTo(expected);
        assertThat(drain(plan)).hasSize(expected);
    }

    @Test
    void durationModeCyclesThroughTheSampledPromptsWithRisingIndices() {
        long twoSecondsNs = 2_000_000_000L;
        List<PlannedRequest> plan =
                drain(RequestPlan.forDuration(FIVE_PER_SECOND, twoSecondsNs, new Shard(0, 1), samples(3)));

        assertThat(plan.size()).as("about 5/s for 2 s").isBetween(4, 20);
        for (int i = 0; i < plan.size(); i++) {
            assertThat(plan.get(i).index()).isEqualTo(i);
            assertThat(plan.get(i).sample().index()).isEqualTo(i % 3);
            assertThat(plan.get(i).offsetNs()).isLessThan(twoSecondsNs);
        }
    }

    private static List<PlannedRequest> drain(RequestPlan plan) {
        List<PlannedRequest> all = new ArrayList<>();
        plan.forEachRemaining(all::add);
        return all;
    }

    private static List<SampledRequest> samples(int n) {
        List<SampledRequest> samples = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            samples.add(new SampledRequest(new Prompt.Text("prompt " + i), 10 + i, 5, i));
        }
        return samples;
    }
}
