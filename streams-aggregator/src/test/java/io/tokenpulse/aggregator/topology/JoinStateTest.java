package io.tokenpulse.aggregator.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.aggregator.topology.JoinState.OffsetBlock;
import io.tokenpulse.aggregator.topology.JoinState.Progress;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.api.Test;

class JoinStateTest {

    @Test
    void aBlockKeepsEachSeqOnceAndGivesItsOffsetsInSeqOrder() {
        OffsetBlock block = OffsetBlock.empty();
        assertThat(block.add(130, 30L)).isTrue(); // slot 2 of block 2
        assertThat(block.add(128, 10L)).isTrue();
        assertThat(block.add(191, 90L)).isTrue(); // the block's last slot
        assertThat(block.add(128, 99L)).as("a repeat").isFalse();
        assertThat(block.offsetsNs()).containsExactly(10L, 30L, 90L);
        assertThat(OffsetBlock.blockOf(127)).isEqualTo(1);
        assertThat(OffsetBlock.blockOf(128)).isEqualTo(2);
        assertThat(OffsetBlock.blockOf(-1)).isEqualTo(-1);
    }

    @Test
    void aSeqsSlotIsItsPlaceInItsBlock() {
        assertThat(OffsetBlock.slotOf(0)).isZero();
        assertThat(OffsetBlock.slotOf(63)).isEqualTo(63);
        assertThat(OffsetBlock.slotOf(130)).isEqualTo(2);
        assertThat(OffsetBlock.slotOf(-1)).isEqualTo(63);
    }

    @Test
    void aBlockSurvivesItsSerdeWithOnlyTheSlotsUpToTheHighestPresent() {
        Serde<OffsetBlock> serde = OffsetBlock.serde();
        OffsetBlock block = OffsetBlock.empty();
        block.add(0, -5L);
        block.add(3, Long.MAX_VALUE);
        byte[] bytes = serde.serializer().serialize("t", block);
        assertThat(bytes).hasSize(8 * (1 + 4));
        OffsetBlock back = serde.deserializer().deserialize("t", bytes);
        assertThat(back.offsetsNs()).containsExactly(-5L, Long.MAX_VALUE);
        assertThat(back.add(3, 1L)).as("the presence bits survive too").isFalse();
        assertThat(back.add(63, 7L)).isTrue();
        assertThat(serde.deserializer()
                        .deserialize("t", serde.serializer().serialize("t", back))
                        .offsetsNs())
                .containsExactly(-5L, Long.MAX_VALUE, 7L);
    }

    @Test
    void progressCompletesOnceTheAnnouncedChunksArrivedAndKeepsTheNewestTimestamp() {
        Progress p = Progress.none().withChunks(1, 200L).withChunks(1, 100L);
        assertThat(p.complete()).as("no finish yet").isFalse();
        p = p.withFinish(3, 150L);
        assertThat(p.complete()).isFalse();
        assertThat(p.lastSeenMs()).isEqualTo(200L);
        p = p.withChunks(1, 300L);
        assertThat(p.complete()).isTrue();
        assertThat(Progress.none().withChunks(3, 100L).withFinish(3, 50L))
                .as("a batch's events count at once")
                .isEqualTo(new Progress(3, 3, 100L));
        assertThat(Progress.none().withFinish(0, 1L).complete())
                .as("a failure announces no chunk")
                .isTrue();
        Serde<Progress> serde = Progress.serde();
        assertThat(serde.deserializer().deserialize("t", serde.serializer().serialize("t", p)))
                .isEqualTo(p);
    }
}
