package io.tokenpulse.producer.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpoolTest {

    @TempDir
    Path tmp;

    private static Spool.Record record(int i) {
        return new Spool.Record(
                i % 3,
                ("key-" + i).getBytes(StandardCharsets.UTF_8),
                ("value-" + i + "-".repeat(i % 17)).getBytes(StandardCharsets.UTF_8));
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static long files(Path dir) throws Exception {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> list = Files.list(dir)) {
            return list.count();
        }
    }

    @Test
    void touchesNoDiskUntilTheFirstAppend() {
        Path dir = tmp.resolve("spool");
        try (Spool spool = new Spool(dir, 1 << 20)) {
            assertThat(spool.isEmpty()).isTrue();
            assertThat(spool.peek()).isNull();
            assertThat(dir).doesNotExist();
        }
    }

    @Test
    void givesRecordsBackInOrderAcrossSegmentsWhileBeingWrittenAndDeletesWhatWasRead() throws Exception {
        Path dir = tmp.resolve("spool");
        try (Spool spool = new Spool(dir, 1 << 20, 200)) {
            int written = 0;
            int read = 0;
            // interleave writes and reads, as the publisher does while Kafka comes back
            for (int round = 0; round < 20; round++) {
                for (int i = 0; i < 7; i++) {
                    assertThat(spool.append(record(written++))).isTrue();
                }
                for (int i = 0; i < 5; i++) {
                    Spool.Record head = spool.peek();
                    assertThat(spool.peek()).isSameAs(head); // peek does not advance
                    assertThat(head.target()).isEqualTo(read % 3);
                    assertThat(text(head.key())).isEqualTo("key-" + read);
                    assertThat(text(head.value())).isEqualTo(text(record(read).value()));
                    spool.remove();
                    read++;
                }
            }
            assertThat(spool.records()).isEqualTo(written - read);
            assertThat(files(dir)).as("read segments are deleted").isLessThan(written * 20L / 200);
            while (!spool.isEmpty()) {
                assertThat(text(spool.peek().key())).isEqualTo("key-" + read++);
                spool.remove();
            }
            assertThat(read).isEqualTo(written);
            assertThat(spool.bytes()).isZero();
            assertThat(files(dir)).isZero();
            // and it starts over after being emptied
            assertThat(spool.append(record(1))).isTrue();
            assertThat(text(spool.peek().key())).isEqualTo("key-1");
        }
        assertThat(dir).doesNotExist();
    }

    @Test
    void refusesARecordThatWouldPassItsBoundAndTakesMoreOnceDrained() {
        Spool.Record one = record(0);
        try (Spool spool = new Spool(tmp.resolve("spool"), one.size() * 3)) {
            assertThat(spool.append(one)).isTrue();
            assertThat(spool.append(one)).isTrue();
            assertThat(spool.append(one)).isTrue();
            assertThat(spool.append(one)).isFalse();
            assertThat(spool.records()).isEqualTo(3);
            spool.peek();
            spool.remove();
            assertThat(spool.append(one)).isTrue();
        }
    }

    @Test
    void closeDeletesRecordsStillInIt() {
        Path dir = tmp.resolve("spool");
        Spool spool = new Spool(dir, 1 << 20, 64);
        for (int i = 0; i < 50; i++) {
            spool.append(record(i));
        }
        spool.peek();
        spool.close();
        assertThat(dir).doesNotExist();
    }

    @Test
    void removeWithoutPeekIsABug() {
        try (Spool spool = new Spool(tmp.resolve("spool"), 1024)) {
            spool.append(record(1));
            assertThatThrownBy(spool::remove).isInstanceOf(IllegalStateException.class);
        }
    }
}
